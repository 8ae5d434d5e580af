// The port of GET /health: one named probe per dependency (the database, Temporal), filled by the
// composition root. It resolves when the dependency answers and throws when it does not.
export type HealthCheck = () => Promise<void>;
