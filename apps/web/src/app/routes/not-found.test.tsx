import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { renderWithProviders } from '@/test/render';
import { NotFoundRoute } from './not-found';

describe('NotFoundRoute', () => {
  it('shows 404, the text, a link home and an illustration', () => {
    const { container } = renderWithProviders(<NotFoundRoute />, { route: '/nope' });
    expect(screen.getByRole('heading', { name: '404' })).toBeInTheDocument();
    expect(screen.getByText("The page you are looking for doesn't exist.")).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/');
    expect(container.ownerDocument.querySelector('svg')).not.toBeNull();
  });
});
