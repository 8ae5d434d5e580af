// One word per concept (docs/rules/booking.md#the-words): the customer's promise to come is not the
// salon's confirmation, and the manage link's token is not a "cancellation" token. New names:
//
//   bookings.confirmed_at            -> promised_at
//   bookings.confirmed_via           -> promised_via
//   bookings.unconfirmed_flagged_at  -> unpromised_flagged_at
//   bookings.cancellation_token_hash -> manage_token_hash
//   tenants.settings unconfirmedFlagHoursBefore -> unpromisedFlagHoursBefore
//   sms_replies.intent CONFIRM -> PROMISE, outcome CONFIRMED -> PROMISED, ALREADY_CONFIRMED -> ALREADY_PROMISED
//
// A rename takes two deploys, because the version before this one keeps running beside it until its
// processes are gone (docs/production.md#renaming-a-column). This migration is the first: the new
// columns and key, filled from the old ones, and triggers that keep each pair equal whichever name a
// process writes (the version before writes the old names, this one the new). The old columns stay,
// unread by this version; a later migration drops them with the triggers, once no process of the
// version before this one runs.
import type { Knex } from 'knex';

const PAIRS = [
  ['confirmed_at', 'promised_at'],
  ['confirmed_via', 'promised_via'],
  ['unconfirmed_flagged_at', 'unpromised_flagged_at'],
  ['cancellation_token_hash', 'manage_token_hash'],
] as const;

/** On insert the name that was written fills the other; on update the one that changed does (the new name wins when both did). */
function inStep(oldName: string, newName: string): string {
  return `
    IF TG_OP = 'INSERT' THEN
      IF NEW.${newName} IS NULL THEN NEW.${newName} := NEW.${oldName}; ELSIF NEW.${oldName} IS NULL THEN NEW.${oldName} := NEW.${newName}; END IF;
    ELSIF NEW.${newName} IS DISTINCT FROM OLD.${newName} THEN NEW.${oldName} := NEW.${newName};
    ELSIF NEW.${oldName} IS DISTINCT FROM OLD.${oldName} THEN NEW.${newName} := NEW.${oldName};
    END IF;`;
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('bookings', (t) => {
    t.timestamp('promised_at', { useTz: true });
    t.string('promised_via', 10);
    t.timestamp('unpromised_flagged_at', { useTz: true });
    t.string('manage_token_hash', 64);
  });
  await knex.raw(`UPDATE bookings SET ${PAIRS.map(([o, n]) => `${n} = ${o}`).join(', ')}
    WHERE confirmed_at IS NOT NULL OR unconfirmed_flagged_at IS NOT NULL OR cancellation_token_hash IS NOT NULL`);
  await knex.raw(`ALTER TABLE bookings ADD CONSTRAINT bookings_promised_via_check
    CHECK ((promised_at IS NULL AND promised_via IS NULL) OR (promised_at IS NOT NULL AND promised_via IN ('LINK', 'SMS', 'STAFF')))`);
  await knex.raw(`CREATE FUNCTION bookings_renamed_columns_in_step() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN ${PAIRS.map(([o, n]) => inStep(o, n)).join('')}
      RETURN NEW;
    END $$`);
  await knex.raw(`CREATE TRIGGER bookings_renamed_columns_in_step BEFORE INSERT OR UPDATE OF ${PAIRS.flat().join(', ')}
    ON bookings FOR EACH ROW EXECUTE FUNCTION bookings_renamed_columns_in_step()`);

  // the salon's setting: the JSON key, kept in step the same way
  await knex.raw(`UPDATE tenants SET settings = settings || jsonb_build_object('unpromisedFlagHoursBefore', settings->'unconfirmedFlagHoursBefore')
    WHERE settings \\? 'unconfirmedFlagHoursBefore' AND NOT settings \\? 'unpromisedFlagHoursBefore'`);
  await knex.raw(`CREATE FUNCTION tenants_renamed_settings_in_step() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.settings IS NULL THEN RETURN NEW; END IF;
      IF TG_OP = 'UPDATE' AND NEW.settings->'unconfirmedFlagHoursBefore' IS DISTINCT FROM OLD.settings->'unconfirmedFlagHoursBefore'
         AND NEW.settings->'unpromisedFlagHoursBefore' IS NOT DISTINCT FROM OLD.settings->'unpromisedFlagHoursBefore' THEN
        -- the version before changed the old key
        NEW.settings := NEW.settings || jsonb_build_object('unpromisedFlagHoursBefore', NEW.settings->'unconfirmedFlagHoursBefore');
      ELSIF NEW.settings \\? 'unpromisedFlagHoursBefore' THEN
        NEW.settings := NEW.settings || jsonb_build_object('unconfirmedFlagHoursBefore', NEW.settings->'unpromisedFlagHoursBefore');
      ELSIF NEW.settings \\? 'unconfirmedFlagHoursBefore' THEN
        NEW.settings := NEW.settings || jsonb_build_object('unpromisedFlagHoursBefore', NEW.settings->'unconfirmedFlagHoursBefore');
      END IF;
      RETURN NEW;
    END $$`);
  await knex.raw(`CREATE TRIGGER tenants_renamed_settings_in_step BEFORE INSERT OR UPDATE OF settings
    ON tenants FOR EACH ROW EXECUTE FUNCTION tenants_renamed_settings_in_step()`);

  // sms_replies: the values a reply recorded, in the new words; the version before may still write the old ones
  await knex.raw('ALTER TABLE sms_replies DROP CONSTRAINT sms_replies_intent_check');
  await knex.raw(`ALTER TABLE sms_replies ADD CONSTRAINT sms_replies_intent_check CHECK (intent IN ('PROMISE', 'CONFIRM', 'CANCEL', 'OTHER'))`);
  await knex.raw(`UPDATE sms_replies SET intent = 'PROMISE' WHERE intent = 'CONFIRM'`);
  await knex.raw(`UPDATE sms_replies SET outcome = CASE outcome WHEN 'CONFIRMED' THEN 'PROMISED' ELSE 'ALREADY_PROMISED' END
    WHERE outcome IN ('CONFIRMED', 'ALREADY_CONFIRMED')`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`UPDATE sms_replies SET outcome = CASE outcome WHEN 'PROMISED' THEN 'CONFIRMED' ELSE 'ALREADY_CONFIRMED' END
    WHERE outcome IN ('PROMISED', 'ALREADY_PROMISED')`);
  await knex.raw(`UPDATE sms_replies SET intent = 'CONFIRM' WHERE intent = 'PROMISE'`);
  await knex.raw('ALTER TABLE sms_replies DROP CONSTRAINT sms_replies_intent_check');
  await knex.raw(`ALTER TABLE sms_replies ADD CONSTRAINT sms_replies_intent_check CHECK (intent IN ('CONFIRM', 'CANCEL', 'OTHER'))`);
  await knex.raw('DROP TRIGGER tenants_renamed_settings_in_step ON tenants');
  await knex.raw('DROP FUNCTION tenants_renamed_settings_in_step()');
  await knex.raw(`UPDATE tenants SET settings = settings - 'unpromisedFlagHoursBefore'`);
  await knex.raw('DROP TRIGGER bookings_renamed_columns_in_step ON bookings');
  await knex.raw('DROP FUNCTION bookings_renamed_columns_in_step()');
  await knex.raw('ALTER TABLE bookings DROP CONSTRAINT bookings_promised_via_check');
  await knex.schema.alterTable('bookings', (t) => {
    for (const [, newName] of PAIRS) t.dropColumn(newName);
  });
}
