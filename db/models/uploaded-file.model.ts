import { BaseModel } from './base.model';

export class UploadedFileModel extends BaseModel {
  static override tableName = 'uploaded_files';
  static override jsonAttributes = ['referencedBy'];

  tenantId!: string;
  key!: string;
  purpose!: string;
  visibility!: 'PUBLIC' | 'PRIVATE';
  status!: 'PENDING_UPLOAD' | 'ACTIVE';
  mimeType!: string;
  sizeBytes!: number;
  originalName!: string | null;
  width!: number | null;
  height!: number | null;
  checksumSha256!: string | null;
  uploadedBy!: string | null;
  referencedBy!: { type: string; id: string } | null;
  referencedAt!: Date | null;
  expiresAt!: Date | null;
  version!: number;
}
