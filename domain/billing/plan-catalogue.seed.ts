// The platform's plan catalogue (NOK, Norwegian texts), written at start-up by bin/migrate when the
// database has no plan at all; after that the super-admin owns it. A transaction-scoped advisory
// lock keeps two processes starting at once from both seeding.
import type { Db } from '../../db/db-handle';
import { advisoryTransactionLock } from '../../db/advisory-locks';
import { countPlans, findFeatureIdByKey, insertFeature, insertFeatureValues, insertPlan, type PlanFeatureFields, type PlanFields } from './plan.repository';

const SEED_LOCK_KEY = 4_220_080;

type SeedFeature = Omit<PlanFeatureFields, 'description' | 'iconKey'> & { description: string; iconKey: string };

const FEATURES: SeedFeature[] = [
  {
    featureKey: 'online_booking',
    displayName: 'Online booking',
    displayNameNb: 'Nettbooking',
    description: 'Your own booking page, open around the clock.',
    descriptionNb: 'Egen bookingside som er åpen døgnet rundt.',
    category: 'bookings',
    isRoadmap: false,
    valueType: 'boolean',
    iconKey: 'calendar',
    sortOrder: 1,
  },
  {
    featureKey: 'staff_limit',
    displayName: 'Staff members',
    displayNameNb: 'Ansatte',
    description: 'How many staff members can take bookings.',
    descriptionNb: 'Hvor mange ansatte som kan ta imot bookinger.',
    category: 'bookings',
    isRoadmap: false,
    valueType: 'number',
    iconKey: 'users',
    sortOrder: 2,
  },
  {
    featureKey: 'sms_reminders',
    displayName: 'SMS reminders per month',
    displayNameNb: 'SMS-påminnelser per måned',
    description: 'Reminders 24 hours before the appointment.',
    descriptionNb: 'Påminnelse 24 timer før timen.',
    category: 'customers',
    isRoadmap: false,
    valueType: 'number',
    iconKey: 'message',
    sortOrder: 1,
  },
  {
    featureKey: 'customer_register',
    displayName: 'Customer register',
    displayNameNb: 'Kunderegister',
    description: 'Visit history and notes per customer.',
    descriptionNb: 'Besøkshistorikk og notater per kunde.',
    category: 'customers',
    isRoadmap: false,
    valueType: 'boolean',
    iconKey: 'address-book',
    sortOrder: 2,
  },
  {
    featureKey: 'loyalty_cards',
    displayName: 'Loyalty cards',
    displayNameNb: 'Stempelkort og poeng',
    description: 'Stamp cards and points that issue vouchers.',
    descriptionNb: 'Stempelkort og poeng som gir gavekoder.',
    category: 'marketing',
    isRoadmap: false,
    valueType: 'boolean',
    iconKey: 'gift',
    sortOrder: 1,
  },
  {
    featureKey: 'custom_domain',
    displayName: 'Your own domain',
    displayNameNb: 'Eget domene',
    description: 'The booking page on your own web address.',
    descriptionNb: 'Bookingsiden på din egen nettadresse.',
    category: 'branding',
    isRoadmap: false,
    valueType: 'boolean',
    iconKey: 'globe',
    sortOrder: 1,
  },
  {
    featureKey: 'online_deposits',
    displayName: 'Deposits with Vipps and card',
    displayNameNb: 'Depositum med Vipps og kort',
    description: 'Take a deposit when the customer books.',
    descriptionNb: 'Ta depositum når kunden booker.',
    category: 'payments',
    isRoadmap: false,
    valueType: 'boolean',
    iconKey: 'credit-card',
    sortOrder: 1,
  },
  {
    featureKey: 'reports',
    displayName: 'Reports',
    displayNameNb: 'Rapporter',
    description: 'Revenue, occupancy and no-shows.',
    descriptionNb: 'Omsetning, belegg og uteblivelser.',
    category: 'reports',
    isRoadmap: false,
    valueType: 'string',
    iconKey: 'chart',
    sortOrder: 1,
  },
  {
    featureKey: 'accounting_export',
    displayName: 'Accounting export',
    displayNameNb: 'Regnskapseksport',
    description: 'Export to Fiken and Tripletex.',
    descriptionNb: 'Eksport til Fiken og Tripletex.',
    category: 'integrations',
    isRoadmap: true,
    valueType: 'boolean',
    iconKey: 'file-export',
    sortOrder: 1,
  },
  {
    featureKey: 'priority_support',
    displayName: 'Priority support',
    displayNameNb: 'Prioritert kundestøtte',
    description: 'Answer within one working day.',
    descriptionNb: 'Svar innen én arbeidsdag.',
    category: 'support',
    isRoadmap: false,
    valueType: 'boolean',
    iconKey: 'headset',
    sortOrder: 1,
  },
];

type SeedPlan = Omit<PlanFields, 'updatedBy' | 'polarVariantId' | 'lemonsqueezyVariantId' | 'sandboxVariantId'> & {
  features: Record<string, true | number | string>;
};

const base = { currency: 'NOK', isPublic: true, isFeatured: false, trialDays: null, tagline: null, description: null } as const;

const PLANS: SeedPlan[] = [
  {
    ...base,
    planKey: 'start',
    displayName: 'Start',
    displayNameNb: 'Start',
    billingCycle: 'monthly',
    tagline: 'For the solo stylist',
    taglineNb: 'For deg som jobber alene',
    descriptionNb: 'Alt du trenger for å ta imot bookinger på nett.',
    flatPriceMinor: 29900,
    pricePerSeatMinor: null,
    selfServeCheckout: true,
    sortOrder: 10,
    features: { online_booking: true, staff_limit: 1, sms_reminders: 100, customer_register: true, reports: 'Enkel' },
  },
  {
    ...base,
    planKey: 'salong',
    displayName: 'Salon',
    displayNameNb: 'Salong',
    billingCycle: 'monthly',
    isFeatured: true,
    tagline: 'For the growing salon',
    taglineNb: 'For salongen som vokser',
    descriptionNb: 'Depositum, stempelkort og eget domene for hele salongen.',
    flatPriceMinor: 59900,
    pricePerSeatMinor: null,
    selfServeCheckout: true,
    sortOrder: 20,
    features: {
      online_booking: true,
      staff_limit: 5,
      sms_reminders: 500,
      customer_register: true,
      loyalty_cards: true,
      custom_domain: true,
      online_deposits: true,
      reports: 'Utvidet',
      accounting_export: true,
    },
  },
  {
    ...base,
    planKey: 'salong_yearly',
    displayName: 'Salon (yearly)',
    displayNameNb: 'Salong (årlig)',
    billingCycle: 'yearly',
    isFeatured: true,
    tagline: 'Two months free',
    taglineNb: 'To måneder gratis',
    descriptionNb: 'Salong-pakken betalt årlig.',
    flatPriceMinor: 599000,
    pricePerSeatMinor: null,
    selfServeCheckout: true,
    sortOrder: 21,
    features: {
      online_booking: true,
      staff_limit: 5,
      sms_reminders: 500,
      customer_register: true,
      loyalty_cards: true,
      custom_domain: true,
      online_deposits: true,
      reports: 'Utvidet',
      accounting_export: true,
    },
  },
  {
    ...base,
    planKey: 'team',
    displayName: 'Team',
    displayNameNb: 'Team',
    billingCycle: 'monthly',
    tagline: 'Priced per staff member',
    taglineNb: 'Pris per ansatt',
    descriptionNb: 'For større salonger: betal for hver ansatt som tar imot bookinger.',
    flatPriceMinor: null,
    pricePerSeatMinor: 19900,
    selfServeCheckout: true,
    sortOrder: 30,
    trialDays: 30,
    features: {
      online_booking: true,
      staff_limit: 50,
      sms_reminders: 2000,
      customer_register: true,
      loyalty_cards: true,
      custom_domain: true,
      online_deposits: true,
      reports: 'Full',
      accounting_export: true,
      priority_support: true,
    },
  },
  {
    ...base,
    planKey: 'kjede',
    displayName: 'Chain',
    displayNameNb: 'Kjede',
    billingCycle: 'yearly',
    tagline: 'Several locations, one agreement',
    taglineNb: 'Flere avdelinger, én avtale',
    descriptionNb: 'Ta kontakt, så lager vi et tilbud.',
    flatPriceMinor: null,
    pricePerSeatMinor: null,
    selfServeCheckout: false,
    sortOrder: 40,
    features: {
      online_booking: true,
      staff_limit: 500,
      sms_reminders: 10000,
      customer_register: true,
      loyalty_cards: true,
      custom_domain: true,
      online_deposits: true,
      reports: 'Full',
      accounting_export: true,
      priority_support: true,
    },
  },
];

/** Seeds the catalogue into an empty plans table; returns how many plans it wrote (0 when any existed). */
export async function seedPlanCatalogue(db: Db): Promise<number> {
  return db.transaction(async (trx) => {
    await advisoryTransactionLock(trx, SEED_LOCK_KEY);
    if ((await countPlans(trx)) > 0) return 0;
    const features = new Map<string, string>();
    for (const f of FEATURES) {
      features.set(f.featureKey, (await findFeatureIdByKey(trx, f.featureKey)) ?? (await insertFeature(trx, f)).id);
    }
    for (const { features: values, ...plan } of PLANS) {
      const row = await insertPlan(trx, { ...plan, sandboxVariantId: plan.selfServeCheckout ? `sandbox_${plan.planKey}` : null });
      const valueType = new Map(FEATURES.map((f) => [f.featureKey, f.valueType]));
      await insertFeatureValues(
        trx,
        row.id,
        Object.entries(values).map(([key, value]) => ({ featureId: features.get(key)!, value: valueType.get(key) === 'boolean' ? null : String(value) })),
      );
    }
    return PLANS.length;
  });
}
