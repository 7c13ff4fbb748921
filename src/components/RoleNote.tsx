/** Why some of the screen's controls are disabled: the role's reason, which those controls point to (aria-describedby). */
export function RoleNote({ id, reason }: { id: string; reason: string | null }) {
  if (!reason) return null;
  return (
    <p id={id} className="role-note small muted" data-testid="role-note">
      {reason}
    </p>
  );
}
