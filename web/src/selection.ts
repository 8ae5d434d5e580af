// What the customer chose, in catalogue terms: the services in page order, their total and the
// deposit the salon will ask for.
import type { BootData, BootService } from '../shared/boot';
import { depositFor } from '../shared/deposit';

export function chosenServices(boot: BootData, ids: string[]): BootService[] {
  const all = boot.services.flatMap((g) => g.services);
  return ids.map((id) => all.find((s) => s.id === id)).filter((s): s is BootService => !!s);
}

export function totalOf(services: BootService[]): number {
  return services.reduce((sum, s) => sum + s.price, 0);
}

export function depositOf(boot: BootData, ids: string[]): number | null {
  return boot.salon.deposit ? depositFor(totalOf(chosenServices(boot, ids)), boot.salon.deposit) : null;
}
