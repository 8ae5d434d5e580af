// Placeholder until the foundation lands: replaced by the real embedded stack.
export async function stopStack(): Promise<void> {}
