import { Model } from 'objection';

/** resource_skills (migration 011): the resource can perform the service. Keyed by the pair; no id, no updated_at. */
export class ResourceSkillModel extends Model {
  static override tableName = 'resource_skills';
  static override idColumn = ['resourceId', 'serviceId'];

  resourceId!: string;
  serviceId!: string;
  tenantId!: string;
  createdAt!: Date;
}
