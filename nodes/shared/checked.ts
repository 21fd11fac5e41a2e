/** The outcome of checking untrusted input: the value, or the reason it was refused (safe to show). */
export type Checked<T> = { ok: true; value: T } | { ok: false; reason: string };
