import { expect } from 'chai';
describe('toolchain', () => {
  it('when mocha runs TypeScript through tsx then strict types compile', () => {
    const n: number = 1;
    expect(n).to.equal(1);
  });
});
