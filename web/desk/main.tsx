// Entry of the front desk (docs/rules/front-desk.md). The server rendered the shell and the boot
// data; this takes over the page.
import { render } from 'preact';
import type { DeskBoot } from '../shared/desk-boot';
import { App } from './App';

const boot = JSON.parse(document.getElementById('desk-boot')!.textContent!) as DeskBoot;
const root = document.getElementById('desk')!;
root.textContent = '';
render(<App boot={boot} />, root);
