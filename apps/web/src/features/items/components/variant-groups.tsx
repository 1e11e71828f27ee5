import { useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { addGroupValue, addVariantGroup, type VariantGroup } from '@pos/domain/variants';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';

export interface VariantGroupsProps {
  groups: VariantGroup[];
  onChange: (groups: VariantGroup[]) => void;
}

function GroupEditor({ group, onChange, onRemove }: { group: VariantGroup; onChange: (g: VariantGroup) => void; onRemove: () => void }) {
  const { t } = useTranslation('backoffice');
  const [value, setValue] = useState('');
  const add = () => {
    // A duplicate or blank value is not added (spec 5).
    onChange({ ...group, values: addGroupValue(group.values, value) });
    setValue('');
  };
  return (
    <section className="variant-group" aria-label={t('items.variantGroupNamed', { name: group.groupName })}>
      <header className="variant-group__header">
        <strong>{group.groupName}</strong>
        <Button size="sm" variant="ghost" aria-label={t('items.removeGroup', { name: group.groupName })} onClick={onRemove}>
          ×
        </Button>
      </header>
      <div className="inline-form">
        <Input
          label={t('items.groupValue', { name: group.groupName })}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          onKeyDown={(e: KeyboardEvent<HTMLInputElement>) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              add();
            }
          }}
        />
        <Button variant="secondary" onClick={add}>
          {t('items.addValue')}
        </Button>
      </div>
      <ul className="chips" aria-label={t('items.valuesOf', { name: group.groupName })}>
        {group.values.map((v) => (
          <li key={v} className="chip">
            {v}
            <button type="button" className="chip-remove" aria-label={t('items.removeValue', { value: v })} onClick={() => onChange({ ...group, values: group.values.filter((x) => x !== v) })}>
              ×
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Variant groups of "Create item": Size = [S, M], Colour = [Red, Blue]… */
export function VariantGroups({ groups, onChange }: VariantGroupsProps) {
  const { t } = useTranslation('backoffice');
  const [name, setName] = useState('');
  const addGroup = () => {
    // An empty group name does nothing (spec 5).
    onChange(addVariantGroup(groups, name));
    setName('');
  };
  return (
    <div className="variant-groups">
      <div className="inline-form">
        <Input
          label={t('items.groupName')}
          value={name}
          onChange={(e) => setName(e.target.value)}
          onKeyDown={(e: KeyboardEvent<HTMLInputElement>) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              addGroup();
            }
          }}
        />
        <Button variant="secondary" onClick={addGroup}>
          {t('items.addGroup')}
        </Button>
      </div>
      {groups.map((g, i) => (
        <GroupEditor
          key={g.groupName}
          group={g}
          onChange={(next) => onChange(groups.map((x, j) => (j === i ? next : x)))}
          onRemove={() => onChange(groups.filter((_, j) => j !== i))}
        />
      ))}
    </div>
  );
}
