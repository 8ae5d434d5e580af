import { BaseModel } from './base.model';

export type ResourceType = 'staff' | 'room' | 'equipment';

export interface ResourceMetadata {
  jobTitle?: string | null;
  phone?: string | null;
  email?: string | null;
  commission?: number | null;
}

export class ResourceModel extends BaseModel {
  static override tableName = 'resources';
  static override jsonAttributes = ['metadata'];

  tenantId!: string;
  type!: ResourceType;
  name!: string;
  color!: string | null;
  imageKey!: string | null;
  avatarKey!: string | null;
  description!: string | null;
  isActive!: boolean;
  isBookableOnline!: boolean;
  sortOrder!: number;
  metadata!: ResourceMetadata;
  userId!: string | null;
}
