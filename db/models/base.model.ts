import { Model } from 'objection';

/** Every table has uuid ids and snake_case timestamps; JSON columns are declared per model. */
export class BaseModel extends Model {
  id!: string;
  createdAt!: Date;
  updatedAt!: Date;

  override $beforeUpdate(): void {
    this.updatedAt = new Date();
  }
}
