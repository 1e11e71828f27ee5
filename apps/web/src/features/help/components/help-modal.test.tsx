import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '@/test/render';
import { SHORTCUTS } from '@/features/shortcuts/shortcut-list';
import { HelpModal } from './help-modal';

// userEvent typing in jsdom is slow on a busy machine.
vi.setConfig({ testTimeout: 20_000 });

describe('HelpModal', () => {
  it('has the two toggles, a search box and every shortcut', async () => {
    const onChange = vi.fn();
    renderWithProviders(<HelpModal open onClose={() => {}} shortcuts={SHORTCUTS} enableShortcuts displayShortcuts={false} onChange={onChange} />);
    expect(screen.getByRole('dialog', { name: 'Help' })).toBeInTheDocument();
    expect(screen.getAllByRole('row')).toHaveLength(SHORTCUTS.length + 1);
    for (const keys of ['?', '/', 'f3', 'ctrl+f', 'ctrl+up', 'ctrl+down', 'ctrl+left', 'ctrl+right', 'del', 'ctrl+enter', 'ctrl+s', 'ctrl+x', 'ctrl+e', 'ctrl+h', 'ctrl+shift+q', 'ctrl+shift+d', 'ctrl+shift+c']) {
      expect(screen.getByText(keys, { selector: 'kbd' })).toBeInTheDocument();
    }
    await userEvent.click(screen.getByRole('switch', { name: 'Enable shortcuts' }));
    expect(onChange).toHaveBeenCalledWith({ enableShortcuts: false });
    await userEvent.click(screen.getByRole('switch', { name: 'Display shortcut texts' }));
    expect(onChange).toHaveBeenCalledWith({ displayShortcuts: true });
    await userEvent.type(screen.getByLabelText('Search shortcuts'), 'ctrl+h');
    expect(screen.getAllByRole('row')).toHaveLength(2);
    expect(screen.getByText('Sale history')).toBeInTheDocument();
  });
});
