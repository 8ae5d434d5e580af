import { BaseModel } from './base.model';

/** personal_data_erasures (migration 210): one erasure request, of a salon's customer record or of a customer account; its workflow's entity. */
export class PersonalDataErasureModel extends BaseModel {
  static override tableName = 'personal_data_erasures';
  static override jsonAttributes = ['outcome'];

  tenantId!: string | null;
  customerId!: string | null;
  customerAccountId!: string | null;
  /** the account's request this salon record is erased for */
  parentId!: string | null;
  /** 'SALON' | 'CUSTOMER' */
  requestedBy!: string;
  requestedByUserId!: string | null;
  /** 'REQUESTED' | 'COMPLETED' */
  status!: string;
  version!: number;
  /** where the last notice goes, kept until it is out */
  noticePhone!: string | null;
  noticeEmail!: string | null;
  noticeLanguage!: string | null;
  outcome!: Record<string, unknown>;
  requestedAt!: Date;
  completedAt!: Date | null;
}
