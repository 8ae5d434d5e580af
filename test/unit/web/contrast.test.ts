import { expect } from 'chai';
import fc from 'fast-check';
import { contrastRatio, pageColours, parseHex, readableColour, textOn } from '../../../web/shared/contrast';

const WHITE: [number, number, number] = [255, 255, 255];
const SOFT: [number, number, number] = [244, 242, 246];
const colour = fc.tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }));
const hex = colour.map(([r, g, b]) => `#${[r, g, b].map((c) => c.toString(16).padStart(2, '0')).join('')}`);

describe('page colours (text contrast whatever the salon picks)', () => {
  it('when the salon picks any primary and secondary colour then text on the brand colour and brand-coloured text on the page both reach 4.5:1', () => {
    fc.assert(
      fc.property(hex, hex, (primaryColor, secondaryColor) => {
        const c = pageColours({ primaryColor, secondaryColor });
        expect(contrastRatio(parseHex(c.onBrand)!, parseHex(c.brand)!)).to.be.at.least(4.5);
        for (const text of [c.brandText, c.accentText]) {
          expect(contrastRatio(parseHex(text)!, WHITE)).to.be.at.least(4.5);
          expect(contrastRatio(parseHex(text)!, SOFT)).to.be.at.least(4.5);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('when the colour already reads well then it is kept; when it does not, it is darkened only as far as needed', () => {
    expect(readableColour([91, 42, 134], WHITE)).to.deep.equal([91, 42, 134]);
    const yellow = readableColour([255, 235, 59], WHITE);
    expect(contrastRatio(yellow, WHITE)).to.be.within(4.5, 4.8);
    expect(textOn([255, 235, 59])).to.deep.equal([0, 0, 0]);
    expect(textOn([20, 20, 80])).to.deep.equal([255, 255, 255]);
  });

  it('when the branding has no colours or nonsense then the default colours are used', () => {
    expect(pageColours({}).brand).to.equal('#5b2a86');
    expect(pageColours({ primaryColor: 'red', secondaryColor: 42 }).brand).to.equal('#5b2a86');
    expect(parseHex('#abc')).to.deep.equal([170, 187, 204]);
  });
});
