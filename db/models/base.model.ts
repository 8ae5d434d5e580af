import { Model } from 'objection';

/** Tables with uuid ids and created_at/updated_at; JSON columns are declared per model. */
export class BaseModel extends Model {
  id!: string;
  createdAt!: Date;
  updatedAt!: Date;

  /** Every UPDATE through a model stamps updated_at, unless the change sets it itself. */
  override $beforeUpdate(): void {
    this.updatedAt ??= new Date();
  }
}
