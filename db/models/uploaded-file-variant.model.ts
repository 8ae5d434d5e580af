import { Model } from 'objection';

/** uploaded_file_variants (migration 090): a resized rendering of a public image the image proxy stored; deleted with its file. */
export class UploadedFileVariantModel extends Model {
  static override tableName = 'uploaded_file_variants';
  static override idColumn = ['fileId', 'key'];

  fileId!: string;
  key!: string;
  createdAt!: Date;
}
