// Objection model instances -> plain objects. Repositories return these, so nothing outside db/ and
// the repositories holds a model (with its $query and lazy relations) or a query builder.
import type { Model, ModelObject } from 'objection';

export type Row<M extends Model> = ModelObject<M>;

export function plain<M extends Model>(model: M): Row<M> {
  return model.toJSON() as Row<M>;
}

export function plainOrUndefined<M extends Model>(model: M | undefined): Row<M> | undefined {
  return model ? plain(model) : undefined;
}
