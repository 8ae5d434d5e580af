// Entry of the v2 booking page. The server rendered the first view (salon, services in a plain form
// that also works without JavaScript) and the boot data; this takes over the booking area.
import { render } from 'preact';
import type { BootData } from '../shared/boot';
import { App } from './App';

const boot = JSON.parse(document.getElementById('boot')!.textContent!) as BootData;
const root = document.getElementById('app')!;
// services ticked before the script arrived are kept
const ticked = [...root.querySelectorAll<HTMLInputElement>('input[name=services]:checked')].map((input) => input.value);
root.textContent = '';
render(<App boot={{ ...boot, chosenServices: ticked.length ? ticked : boot.chosenServices }} />, root);
