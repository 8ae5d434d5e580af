// Point 5 (pure part): the List Filter parser and evaluator.
import { expect } from 'chai';
import { evaluate, parseQuery, QuerySyntaxError } from '../src/rpc/visibility/visibility-query';

const row = (values: Record<string, unknown>) => (f: string) => values[f] as never;

describe('devserver visibility query parser', () => {
  const r = row({
    WorkflowId: 'booking:1',
    WorkflowType: 'booking',
    ExecutionStatus: 'Running',
    StartTime: Date.parse('2026-01-02T00:00:00Z'),
    CloseTime: null,
    Tags: ['a', 'b'],
    DueAt: Date.parse('2026-03-01T10:00:00Z'),
  });

  const cases: [string, boolean][] = [
    ['', true],
    ["WorkflowId = 'booking:1'", true],
    ['WorkflowId = "booking:2"', false],
    ["WorkflowType = 'booking' AND ExecutionStatus = 'Running'", true],
    ["WorkflowType = 'payment' OR ExecutionStatus = 'Running'", true],
    ["WorkflowType = 'payment' OR (ExecutionStatus = 'Running' AND WorkflowId != 'booking:1')", false],
    ["ExecutionStatus IN ('Completed', 'Running')", true],
    ["ExecutionStatus NOT IN ('Completed', 'Running')", false],
    ["StartTime > '2026-01-01T00:00:00Z'", true],
    ["StartTime BETWEEN '2026-01-01T00:00:00Z' AND '2026-01-01T12:00:00Z'", false],
    ["WorkflowId STARTS_WITH 'booking:'", true],
    ["Tags = 'b'", true],
    ["Tags = 'c'", false],
    ["CloseTime > '2026-01-01T00:00:00Z'", false],
    ["WorkflowType = 'booking' ORDER BY StartTime DESC", true],
    ["DueAt > '2026-03-01T09:00:00Z'", true],
    ["DueAt < '2026-03-01T09:00:00Z'", false],
  ];
  for (const [q, expected] of cases) {
    it(`${q || '(empty)'} -> ${expected}`, () => {
      const parsed = parseQuery(q);
      expect(parsed.where ? evaluate(parsed.where, r) : true).to.equal(expected);
    });
  }

  it('parses ORDER BY', () => {
    expect(parseQuery('ORDER BY StartTime').orderBy).to.deep.equal({ field: 'StartTime', desc: false });
    expect(parseQuery("WorkflowId = 'x' order by StartTime desc").orderBy).to.deep.equal({ field: 'StartTime', desc: true });
  });

  for (const bad of ["WorkflowId = 'x", 'WorkflowId', "WorkflowId = 'x' AND", "WorkflowId ~ 'x'", "WorkflowId = 'x' LIMIT 5", "StartTime > 'yesterday'"]) {
    it(`rejects ${bad}`, () => {
      expect(() => {
        const p = parseQuery(bad);
        if (p.where) evaluate(p.where, r);
      }).to.throw(QuerySyntaxError);
    });
  }
});
