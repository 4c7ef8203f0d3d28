// The call log under kill -9: 10 rounds of a real `mws serve` answering calls from
// 16 parallel clients, each killed with SIGKILL in the turn its 1,100th answer arrives. Prints, per
// round and in all, the calls answered and those of them missing from calls.jsonl.
// Run: node --import tsx bench/callLogKill.ts [rounds] [calls]
import { killRound } from '../test/helpers/killRound.js';

const rounds = Number(process.argv[2] ?? 10);
const calls = Number(process.argv[3] ?? 1100);
let answered = 0;
let lost = 0;
for (let i = 0; i < rounds; i++) {
  const r = await killRound({ calls, parallel: 16, deadlineMs: 600_000 });
  answered += r.answered;
  lost += r.lost;
  console.log(`round ${i + 1}: ${r.answered} answered, ${r.lost} lost, ${(r.answered / (r.ms / 1000)).toFixed(0)} calls/s`);
}
console.log(`total: ${lost} lost of ${answered} answered calls over ${rounds} kills`);
