import type { ReactNode } from 'react';

export function ErrorBox({ title, message, children }: { title: string; message?: string; children?: ReactNode }) {
  return (
    <div className="error-box" role="alert">
      <strong>{title}</strong>
      {message && <p>{message}</p>}
      {children}
    </div>
  );
}
