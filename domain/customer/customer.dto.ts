// Customer rows -> the API's Customer and TenantCustomer shapes (openapi.yaml).
import { toIso, toIsoOrNull } from '../time/iso';
import type { CustomerRow } from './customer.repository';
import type { TenantCustomerRow } from './tenant-customer.repository';

export interface CustomerDto {
  id: string;
  name: string;
  phone: string | null;
  email: string | null;
  notes: string | null;
  /** agreed to "time for your next visit" messages (docs/rules/series.md#rebooking-nudges) */
  acceptsRebookingNudges: boolean;
  /** the record's identity was erased or pseudonymised (docs/rules/personal-data.md) */
  erasedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface TenantCustomerDto {
  id: string;
  customerId: string;
  customer: { id: string; name: string; phone: string | null; email: string | null };
  tags: string[];
  notes: string | null;
  visitCount: number;
  firstVisit: string | null;
  lastVisit: string | null;
  totalSpent: number;
  createdAt: string;
  updatedAt: string;
}

export function toCustomerDto(c: CustomerRow): CustomerDto {
  return {
    id: c.id,
    name: c.name,
    phone: c.phone,
    email: c.email,
    notes: c.notes,
    acceptsRebookingNudges: c.acceptsRebookingNudges ?? false,
    erasedAt: toIsoOrNull(c.erasedAt),
    createdAt: toIso(c.createdAt),
    updatedAt: toIso(c.updatedAt),
  };
}

export function toTenantCustomerDto(tc: TenantCustomerRow, customer: CustomerRow): TenantCustomerDto {
  return {
    id: tc.id,
    customerId: tc.customerId,
    customer: { id: customer.id, name: customer.name, phone: customer.phone, email: customer.email },
    tags: tc.tags ?? [],
    notes: tc.notes,
    visitCount: tc.visitCount,
    firstVisit: toIsoOrNull(tc.firstVisit),
    lastVisit: toIsoOrNull(tc.lastVisit),
    totalSpent: Number(tc.totalSpent),
    createdAt: toIso(tc.createdAt),
    updatedAt: toIso(tc.updatedAt),
  };
}
