import { expect } from 'chai';
import { completeSettings, settingsInCurrentNames, settingsWithReleasedNames } from '../../../domain/tenant/tenant-settings.rules';

describe('tenant settings under their released names (docs/api/changelog.md)', () => {
  it('when a request names the flag time by its released name then it counts as unpromisedFlagHoursBefore; the current name wins when both are given', () => {
    expect(settingsInCurrentNames({ unconfirmedFlagHoursBefore: 12 })).to.deep.equal({ unpromisedFlagHoursBefore: 12 });
    expect(settingsInCurrentNames({ unconfirmedFlagHoursBefore: 12, unpromisedFlagHoursBefore: 6 })).to.deep.equal({ unpromisedFlagHoursBefore: 6 });
    expect(settingsInCurrentNames({ unconfirmedFlagHoursBefore: null })).to.deep.equal({ unpromisedFlagHoursBefore: null });
    expect(completeSettings('beauty', { unconfirmedFlagHoursBefore: 12 }))
      .to.include({ unpromisedFlagHoursBefore: 12 })
      .and.not.have.property('unconfirmedFlagHoursBefore');
  });

  it('when the settings are shown then the released name stands beside the current one with the same value', () => {
    expect(settingsWithReleasedNames(completeSettings('beauty', { unpromisedFlagHoursBefore: 3 }))).to.include({
      unpromisedFlagHoursBefore: 3,
      unconfirmedFlagHoursBefore: 3,
    });
  });
});
