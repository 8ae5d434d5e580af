// Activities used by the dev-server conformance tests.
import { Context } from '@temporalio/activity';

export async function echo(s: string): Promise<string> {
  return s;
}
