// What the HTTP edge needs from the outside world; bin/api.ts and the tests build it.
import type { Knex } from 'knex';
import type { AppConfig } from '../config';
import type { Logger } from '../integrations/logger';
import type { HealthCheck } from '../domain/health/health.service';
import type { Mailer } from '../integrations/mail/mailer';
import type { EntitySignaller } from '../domain/workflow-signals/entity-signaller';

export interface AppDeps {
  config: AppConfig;
  logger: Logger;
  knex: Knex;
  mailer: Mailer;
  health: Record<string, HealthCheck>;
  /** signals entity workflows before a state change commits (ARCHITECTURE.md section 4) */
  signaller: EntitySignaller;
}
