// What the Schemathesis run of the contract (test/fuzz/schemathesis.test.ts) may report without
// failing: each entry is one kind of failure on the operations it names, for the answers it
// describes, and why it is not a fault of the platform or of openapi.yaml. Anything else it reports
// fails the test. Keep the list short: a new entry needs a reason a reviewer accepts, never "it fails".
//
// Most entries are "Schema-valid request rejected" (the positive_data_acceptance check): a request
// the schema allows, refused with the documented 4xx naming the field, by a rule a JSON schema
// cannot state - the clock, one field against another, the rows already stored, a phone number's
// country. Each such entry names the codes and the fields of the refusal, so that a refusal for
// another reason still fails the run.

export interface ErrorDetail {
  field: string;
  message: string;
}

export interface ReportedFailure {
  /** Schemathesis's failure title ("Undocumented status code", "Schema-valid request rejected", ...) */
  title: string;
  /** "METHOD /path" as the contract names the operation */
  operation: string;
  status: number | null;
  /** the refusal's error code, message and details, when the answer is the error envelope */
  code: string | null;
  errorMessage: string | null;
  details: ErrorDetail[];
  /** what Schemathesis changed or generated ("Positive test case", "Missing request body", ...) */
  description: string;
  /** the request's URI, query included */
  uri: string;
}

export interface AcceptedFailure {
  title: string;
  /** a regular expression over "METHOD /path" */
  operations: RegExp;
  /** the answer's status or error code or message that makes it accepted (any, when left out) */
  statuses?: number[];
  codes?: string[];
  errorMessage?: RegExp;
  /** every field the refusal names matches this, and it names one at least (any, when left out) */
  fields?: RegExp;
  /** every message of the refusal's details matches this, and it has one at least (any, when left out) */
  detailMessages?: RegExp;
  /** a regular expression the request's URI must match (any, when left out) */
  uri?: RegExp;
  why: string;
}

const VALID_REJECTED = 'Schema-valid request rejected';
const INVALID_ACCEPTED = 'Schema-violating request accepted';

export const ACCEPTED_FAILURES: AcceptedFailure[] = [
  {
    title: VALID_REJECTED,
    operations: /^GET \/bookings$/,
    codes: ['VALIDATION_ERROR'],
    fields: /^after$/,
    detailMessages: /^must be a meta\.nextAfter of this list with sort=[A-Za-z]+ and order=(asc|desc)$/,
    why: 'A keyset cursor is opaque: only a meta.nextAfter the list itself answered, for the same sort and order, is one (docs/api/README.md#paging). A schema can give its shape, not which values the server made.',
  },
  {
    title: VALID_REJECTED,
    operations: /./,
    codes: ['BOOKING_IN_PAST', 'DATE_BEYOND_BOOKING_WINDOW', 'VALIDATION_ERROR'],
    detailMessages:
      /^must (be in the future|be on or before \d{4}-\d\d-\d\d|be today \(\d{4}-\d\d-\d\d\) or later|(not )?be (after|before|on or after|on or before) [a-z][A-Za-z.]*)$|^give an? [a-z]+ or the [a-z]+$/,
    why: "The clock, and one field against another: a customer's start or wish lies ahead of now and inside the salon's booking window (docs/rules/booking.md#bookings-in-the-past, docs/rules/waitlist.md#joining); an end after its start, a latest time after the earliest, a duration or the phases (docs/rules/catalogue.md#schedules-and-overrides, docs/rules/catalogue.md#phases-buffers-and-rooms). A schema's dates are fixed, today is not, and OpenAPI 3.0 compares no two values.",
  },
  {
    title: VALID_REJECTED,
    operations: /^(POST \/taxes|PATCH \/taxes\/\{id\})$/,
    codes: ['VALIDATION_ERROR'],
    fields: /^rate$/,
    detailMessages: /^must have at most 3 decimals$/,
    why: 'A tax rate has at most three decimals (docs/rules/salon.md#taxes-and-accounting-accounts): `multipleOf: 0.001` would refuse rates it allows, as 0.007 is no whole multiple of 0.001 in binary floating point, so the server counts the decimals.',
  },
  {
    title: VALID_REJECTED,
    operations: /./,
    codes: ['VALIDATION_ERROR'],
    fields: /(^|\.)phone$/,
    detailMessages: /^must be a valid phone number/,
    why: "A phone number must have a length its country's numbers have, read with libphonenumber's metadata and the salon's country (docs/rules/conventions.md#phone-numbers): no pattern holds that table.",
  },
  {
    title: VALID_REJECTED,
    operations: /./,
    codes: ['VALIDATION_ERROR'],
    detailMessages: /must not contain the NUL character/,
    why: "Postgres text cannot hold a NUL character, so one middleware refuses \\u0000 in every string of every route, naming the field (api/middleware/input-guard.ts): written as a pattern on each of the contract's strings it would bury the contract, and Schemathesis still sees it refused where it sends it as invalid.",
  },
  {
    title: VALID_REJECTED,
    operations: /^(POST \/auth\/register|POST \/tenants|PATCH \/tenants\/\{id\})$/,
    errorMessage: /^Invalid tenant settings$/,
    why: 'Settings are checked as a whole (docs/rules/salon.md#settings): an IANA time zone, an ISO 4217 currency, each weekday once in the business hours, the unpromised flag before the reminder. Names from outside lists and one setting against another are rules a schema cannot state.',
  },
  {
    title: VALID_REJECTED,
    operations: /^(PUT \/superadmin\/billing-configs\/\{id\}\/plan-mappings|POST \/admin\/superadmin\/plans|PATCH \/admin\/superadmin\/plans\/\{id\})$/,
    errorMessage: /^(Unknown plan|Unknown feature|Invalid plan pricing)$/,
    why: "Plan keys and feature keys name rows of the plan catalogue, and a plan's patch is checked merged onto the stored plan (docs/rules/billing.md#plans-and-features): made-up keys, and a patch that gives a plan its second price, are refused 400 naming the field, as documented.",
  },
  {
    title: VALID_REJECTED,
    operations: /^POST \/loyalty-cards$/,
    codes: ['VALIDATION_ERROR'],
    detailMessages: /^(not a field of a [A-Z_]+ card|is required for a [A-Z_]+ card)$/,
    why: "A card's fields follow its type (docs/rules/loyalty.md#cards): the released contract gives both types one schema, and a discriminated one would be a breaking change of it (docs/api/README.md).",
  },
  {
    title: VALID_REJECTED,
    operations: /^POST \/services$|^PATCH \/services\/\{id\}$/,
    codes: ['VALIDATION_ERROR'],
    fields: /^phases\.\d+\.(kind|minutes)$/,
    why: "A phase needs its kind and its minutes, checked on the server (CatalogueServicePhaseInput's description): making them required in the schema would break the released contract's clients (docs/api/README.md).",
  },
  {
    title: VALID_REJECTED,
    operations: /^PATCH \/auth\/profile$/,
    codes: ['VALIDATION_ERROR'],
    fields: /^currentPassword$/,
    why: 'Changing the e-mail or the phone asks for the current password (docs/rules/auth.md#changing-contact-details); other changes of the profile do not: a requirement that hangs on which other fields are sent.',
  },
  {
    title: VALID_REJECTED,
    operations: /^POST \/public\/tenants\/\{slug\}\/bookings$/,
    codes: ['LOYALTY_VOUCHER_GUEST_NOT_ALLOWED'],
    why: 'A voucher is applied by the signed-in customer it belongs to (docs/rules/loyalty.md#applying-a-voucher); Schemathesis books as a guest, whose voucher code is refused 422 as documented.',
  },
  {
    title: VALID_REJECTED,
    operations: /^POST \/auth\/(reset-password|change-password)$/,
    codes: ['PASSWORD_RESET_TOKEN_INVALID', 'CURRENT_PASSWORD_INCORRECT'],
    why: 'A reset token and the current password are secrets (docs/rules/auth.md#forgotten-passwords): ones made up in their shape are refused as documented (400, 422), never 404, so the routes tell no one which exist.',
  },
  {
    title: VALID_REJECTED,
    operations: /^(PATCH \/taxes\/\{id\}|POST \/accounting-accounts|PATCH \/accounting-accounts\/\{id\}|POST \/admin\/payments\/remaining)$/,
    codes: ['TAX_DEFAULT_MUST_BE_ACTIVE', 'TAX_REFERENCE_INVALID', 'NO_ACTIVE_PROVIDER'],
    why: "The rows already stored: the default tax must be active, an account's tax one of the salon's (docs/rules/salon.md#taxes-and-accounting-accounts), and a remaining payment needs the salon's active payment provider (docs/rules/payments.md#remaining-payment), which the fuzzed salon has not set up. Refused 422 as documented.",
  },
  {
    title: VALID_REJECTED,
    operations: /^POST \/loyalty-cards\/\{id\}\/redeem$/,
    statuses: [410],
    codes: ['LOYALTY_STAMP_REDEEM_REMOVED'],
    why: 'The old manual stamp redemption answers 410 Gone for the time the versioning rules keep a removed route (docs/rules/loyalty.md#cards): no request to it is accepted any more.',
  },
  {
    title: VALID_REJECTED,
    operations: /^POST \/upload(\/presigned-put)?$/,
    codes: ['UPLOAD_TOO_SMALL', 'UPLOAD_TOO_LARGE'],
    why: "A file's size limits are its purpose's (docs/rules/uploads.md#purposes): the schema states the widest; the purpose's own is a rule of one field against another.",
  },
  {
    title: VALID_REJECTED,
    operations: /^POST \/upload$/,
    codes: ['VALIDATION_ERROR'],
    fields: /^file$/,
    detailMessages: /after the purpose field/,
    why: 'The file is streamed to storage as it arrives, after its purpose was checked (docs/rules/uploads.md#public-images): the purpose part comes first, and OpenAPI cannot state the order of multipart parts.',
  },
  {
    title: VALID_REJECTED,
    operations: /^GET \/(public\/tenants\/\{slug\}\/)?availability$/,
    uri: /^(?!.*[?&]serviceIds?=)/,
    why: 'The services are asked for as serviceIds or, for six months, under the released name serviceId (docs/api/changelog.md): OpenAPI 3.0 cannot make one of two parameters required, so neither is 400 naming serviceIds, as documented.',
  },
  {
    title: 'Server error',
    operations: /^POST \/subscription\/(checkout|portal)$/,
    statuses: [503],
    codes: ['BILLING_PROVIDER_NOT_AVAILABLE'],
    why: "The same run fuzzes the platform admin's billing configurations (activating, deactivating, deleting them): while none is active, checkout answers the documented 503 BILLING_PROVIDER_NOT_AVAILABLE (docs/rules/billing.md#billing-configs), a state of the data, not a fault.",
  },
  {
    title: INVALID_ACCEPTED,
    operations: /^GET /,
    uri: /[?&][^=&]+=(&|$)/,
    why: 'An optional filter sent empty (`?serviceId=`) is the filter left out (docs/rules/errors.md#request-bodies): Schemathesis takes the empty text for a wrong value of the parameter, the platform for no value.',
  },
  {
    title: INVALID_ACCEPTED,
    operations: /./,
    statuses: [431],
    why: "Node answers 431 before the app runs when the request line and headers pass its 16 KB: a query that long is refused, but by the HTTP server, which no operation's responses can list.",
  },
  {
    title: 'Undocumented status code',
    operations: /./,
    statuses: [431],
    why: 'The same 431 of the HTTP server, seen as a status the operation does not list.',
  },
];

function every(items: string[], pattern: RegExp | undefined): boolean {
  return pattern === undefined || (items.length > 0 && items.every((item) => pattern.test(item)));
}

/** Whether a reported failure is one of the accepted ones. */
export function isAccepted(failure: ReportedFailure): boolean {
  return ACCEPTED_FAILURES.some(
    (a) =>
      a.title === failure.title &&
      a.operations.test(failure.operation) &&
      (a.statuses === undefined || (failure.status !== null && a.statuses.includes(failure.status))) &&
      (a.codes === undefined || a.codes.includes(failure.code ?? '')) &&
      (a.errorMessage === undefined || a.errorMessage.test(failure.errorMessage ?? '')) &&
      every(
        failure.details.map((d) => d.field),
        a.fields,
      ) &&
      every(
        failure.details.map((d) => d.message),
        a.detailMessages,
      ) &&
      (a.uri === undefined || a.uri.test(failure.uri)),
  );
}
