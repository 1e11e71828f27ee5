import { Controller, type Control, type FieldPath, type FieldValues } from 'react-hook-form';
import { Select, type SelectProps } from '@/components/ui/select';

export interface FormSelectProps<T extends FieldValues> extends Omit<SelectProps, 'name' | 'value' | 'defaultValue' | 'onChange'> {
  control: Control<T>;
  name: FieldPath<T>;
  /** Runs after the form value changed (e.g. load a purchase order's lines). */
  onValueChange?: (value: string) => void;
}

/**
 * A select bound to react-hook-form as a controlled field: when its options arrive after the
 * form's default value (option lists load asynchronously) it still shows the chosen option.
 */
export function FormSelect<T extends FieldValues>({ control, name, onValueChange, error, ...rest }: FormSelectProps<T>) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <Select
          {...rest}
          ref={field.ref}
          name={field.name}
          value={(field.value as string | undefined) ?? ''}
          onBlur={field.onBlur}
          onChange={(e) => {
            field.onChange(e.target.value);
            onValueChange?.(e.target.value);
          }}
          error={fieldState.error?.message ?? error}
        />
      )}
    />
  );
}
