/**
 * `BENCH_SUITE=automations npm run bench`: a crowd entering an automation at once (issue 38), on
 * Postgres, everything on 127.0.0.1, beside a broadcast to the same contacts in the same run.
 *
 *   the world  the broadcasts suite's (bench/suite-broadcasts.ts): a settled, reviewed organization
 *              on `2m` with a verified domain, an audience of BENCH_BROADCAST_CONTACTS contacts
 *              (default 100,000) seeded with SQL.
 *   beside     that suite's figures for the same contacts, first: the bare hand-off floor
 *              (postgres-js writing a row per contact, 500 per INSERT), the service's broadcast
 *              hand-off (one worker process) and its delivery through the pooled relay
 *              (time-boxed), so the emails table holds only delivered broadcast mail after.
 *   entering   an enabled automation (trigger `bench.entered` → delay 1 day → send_email of a
 *              ~2 kB template → end); every contact enters through the service's startRuns, in
 *              the transactions a contact import raises its batch's event in (1,000 contacts
 *              each), then the service's sweepAutomationRuns in a child process
 *              (bench/automation-worker.ts, as the embedded runner) until no run is due. Figures:
 *              the entry, the sweep to the first wait, and the two together (runs/s). Checked:
 *              a run per contact, each waiting at the delay with its two history rows.
 *   sending    the day passes (every waiting run made due with SQL), then the same worker until
 *              no run is due or BENCH_AUTOMATION_SEND_SECONDS: send steps per second. Checked:
 *              one email per completed run, no address twice, the run's email record.
 *
 * Results: a table on stdout and bench/results/automations-latest.json; docs/benchmarks.md
 * ("Automations suite").
 */
import os from 'node:os';
import { createTemplate } from '../server/services/templates/crud';
import { createAutomation, startRuns } from '../server/services/automations';
import type { AutomationSweepRun } from './automation-worker';
import { cpuWindow, fixed, forkWorker, int, log, machineInfo, noteLoadAverage, printTable, writeResult } from './harness';
import {
  BROADCAST_HTML,
  FROM,
  bareHandOff,
  printDelivery,
  printHandOff,
  serviceDelivery,
  serviceHandOff,
  settings as broadcastSettings,
  settle,
  setUp,
  type DeliveryFigure,
  type HandOffFigure,
  type World,
} from './suite-broadcasts';

const settings = {
  /** Contacts entering in one transaction, as one import batch raises them. */
  entryBatch: int('BENCH_AUTOMATION_ENTRY_BATCH', 1_000),
  /** The send phase stops starting sweeps after this, and is rated over what it sent. */
  sendSeconds: int('BENCH_AUTOMATION_SEND_SECONDS', 300),
  /** The broadcast beside it, and its delivery (0 skips them). */
  beside: int('BENCH_AUTOMATION_BESIDE', 1, 0) === 1,
  deliverSeconds: int('BENCH_AUTOMATION_DELIVER_SECONDS', 30),
};

export const automationsDeadlineMs = () =>
  240_000 + broadcastSettings.contacts * 2 + (settings.beside ? 300_000 + broadcastSettings.contacts * 8 + settings.deliverSeconds * 1000 : 0) + broadcastSettings.contacts * 20 + settings.sendSeconds * 1000;

interface PhaseFigure {
  phase: string;
  runs: number;
  seconds: number;
  perSecond: number;
  workerCpuMsPerRun: number | null;
  postgresCpuMsPerRun: number | null;
  otherCores: number | null;
  timedOut: boolean;
  checks: string;
}

async function createCrowdAutomation(world: World): Promise<string> {
  const deps = world.runtime.deps;
  const template = await createTemplate(deps, world.principal, { name: 'Welcome', subject: 'Welcome to Shop Example', html: BROADCAST_HTML.replaceAll('{{ name }}', '{{ contact.first_name | default: "there" }}').replaceAll('{{ email }}', '{{ contact.email }}'), from: FROM });
  const automation = await createAutomation(deps, world.principal, {
    name: 'Welcome after a day',
    status: 'enabled',
    steps: [
      { key: 'start', type: 'trigger', config: { event_name: 'bench.entered' } },
      { key: 'a_day', type: 'delay', config: { duration: '1 day' } },
      { key: 'welcome', type: 'send_email', config: { template: { id: template.id } } },
    ],
    connections: [
      { from: 'start', to: 'a_day', type: 'default' },
      { from: 'a_day', to: 'welcome', type: 'default' },
    ],
  });
  return automation.id;
}

/** Every contact enters through startRuns, a batch per transaction (as an import's batch raises its event). */
async function enter(world: World): Promise<{ runs: number; seconds: number }> {
  const deps = world.runtime.deps;
  const started = performance.now();
  let runs = 0;
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const batch = await world.sql<Array<{ id: string; email: string }>>`
      select id::text, email from contacts where organization_id = ${world.organizationId} and id > ${after} order by id limit ${settings.entryBatch}`;
    if (batch.length === 0) break;
    after = batch[batch.length - 1]!.id;
    const ids = await deps.db.transaction((tx) => startRuns(tx, deps, { organizationId: world.organizationId, name: 'bench.entered', payload: { source: 'bench' }, test: false, contacts: batch }));
    runs += ids.length;
  }
  return { runs, seconds: (performance.now() - started) / 1000 };
}

async function sweepPhase(world: World, worker: ReturnType<typeof forkWorker>, phase: string, limitMs: number): Promise<{ run: AutomationSweepRun; usage: ReturnType<ReturnType<typeof cpuWindow>['end']> }> {
  await settle(world);
  await world.sql`vacuum (analyze) automation_runs, automation_run_steps`;
  log(`${phase}: sweepAutomationRuns until no run is due${limitMs < Infinity ? ` (at most ${limitMs / 1000} s)` : ''}`);
  const window = cpuWindow({ worker: worker.child.pid });
  const run = await worker.ask<AutomationSweepRun>({ op: 'run', limitMs }, limitMs + 120_000);
  return { run, usage: window.end() };
}

async function runAutomation(world: World): Promise<PhaseFigure[]> {
  const automationId = await createCrowdAutomation(world);
  const worker = forkWorker('automation-sweep', 'automation-worker.ts', world.serviceEnv, { profile: broadcastSettings.profile });
  try {
    await worker.receive<{ ready: true }>(60_000);
    await settle(world);
    log(`entering: ${broadcastSettings.contacts} contacts through startRuns, ${settings.entryBatch} per transaction`);
    const entryWindow = cpuWindow({});
    const entry = await enter(world);
    const entryUsage = entryWindow.end();
    if (entry.runs !== broadcastSettings.contacts) throw new Error(`entering: ${entry.runs} runs started for ${broadcastSettings.contacts} contacts`);

    const firstWait = await sweepPhase(world, worker, 'to the first wait', 30 * 60_000);
    const [waiting] = await world.sql<Array<{ waiting: number; other: number; history: number }>>`
      select count(*) filter (where step_key = 'a_day' and step_state = 'waiting' and status = 'running')::int as waiting,
        count(*) filter (where not (step_key = 'a_day' and step_state = 'waiting' and status = 'running'))::int as other,
        (select count(*)::int from automation_run_steps s join automation_runs r on r.id = s.run_id where r.automation_id = ${automationId}) as history
      from automation_runs where automation_id = ${automationId}`;
    if (waiting!.waiting !== entry.runs || waiting!.other !== 0 || waiting!.history !== 2 * entry.runs) {
      throw new Error(`to the first wait: ${waiting!.waiting} runs waiting at the delay, ${waiting!.other} elsewhere, ${waiting!.history} history rows, for ${entry.runs} runs`);
    }
    const per = (ms: number | null | undefined, n: number) => (ms == null || n === 0 ? null : ms / n);
    const figures: PhaseFigure[] = [
      {
        phase: 'entry (startRuns, the event raised per import batch)',
        runs: entry.runs,
        seconds: entry.seconds,
        perSecond: entry.runs / entry.seconds,
        workerCpuMsPerRun: null,
        postgresCpuMsPerRun: per(entryUsage.postgresMs, entry.runs),
        otherCores: entryUsage.otherCores,
        timedOut: false,
        checks: `${entry.runs} runs, one per contact`,
      },
      {
        phase: 'sweep to the first wait (trigger, delay begun)',
        runs: entry.runs,
        seconds: firstWait.run.ms / 1000,
        perSecond: entry.runs / (firstWait.run.ms / 1000),
        workerCpuMsPerRun: per(firstWait.usage.processes.worker, entry.runs),
        postgresCpuMsPerRun: per(firstWait.usage.postgresMs, entry.runs),
        otherCores: firstWait.usage.otherCores,
        timedOut: firstWait.run.timedOut,
        checks: `all ${waiting!.waiting} waiting at the delay, ${waiting!.history} history rows; ${firstWait.run.sweeps} sweeps`,
      },
    ];
    figures.push({
      phase: 'entered to all at their first wait',
      runs: entry.runs,
      seconds: entry.seconds + firstWait.run.ms / 1000,
      perSecond: entry.runs / (entry.seconds + firstWait.run.ms / 1000),
      workerCpuMsPerRun: null,
      postgresCpuMsPerRun: null,
      otherCores: null,
      timedOut: firstWait.run.timedOut,
      checks: 'the two rows above, one after the other',
    });

    // The day passes: every waiting run is due now (the engine reads due_at; nothing else knows the clock).
    await world.sql`update automation_runs set due_at = now() where automation_id = ${automationId} and status = 'running'`;
    const sending = await sweepPhase(world, worker, 'sending', settings.sendSeconds * 1000);
    const [sent] = await world.sql<Array<{ completed: number; emails: number; addresses: number; records: number }>>`
      select (select count(*)::int from automation_runs where automation_id = ${automationId} and status = 'completed') as completed,
        count(*)::int as emails, count(distinct "to"::text)::int as addresses,
        (select count(*)::int from automation_emails where automation_id = ${automationId}) as records
      from emails where broadcast_id is null and organization_id = ${world.organizationId}`;
    if (sent!.emails !== sent!.completed || sent!.addresses !== sent!.emails || sent!.records !== sent!.emails) {
      throw new Error(`sending: ${sent!.emails} emails to ${sent!.addresses} addresses, ${sent!.records} email records, for ${sent!.completed} completed runs`);
    }
    figures.push({
      phase: 'send steps (a day later)',
      runs: sent!.emails,
      seconds: sending.run.ms / 1000,
      perSecond: sent!.emails / (sending.run.ms / 1000),
      workerCpuMsPerRun: per(sending.usage.processes.worker, sent!.emails),
      postgresCpuMsPerRun: per(sending.usage.postgresMs, sent!.emails),
      otherCores: sending.usage.otherCores,
      timedOut: sending.run.timedOut,
      checks: `${sent!.emails} emails queued = ${sent!.completed} runs completed, no address twice, each recorded`,
    });
    return figures;
  } finally {
    await worker.stop();
  }
}

function printPhases(figures: PhaseFigure[], beside: HandOffFigure[]): void {
  printTable(
    ['automation', 'runs', 's', 'runs/s', 'worker CPU ms/run', 'pg CPU ms/run', 'other procs (cores)'],
    figures.map((f) => [f.phase + (f.timedOut ? ' (time-boxed)' : ''), String(f.runs), f.seconds.toFixed(1), f.perSecond.toFixed(0), fixed(f.workerCpuMsPerRun, 3), fixed(f.postgresCpuMsPerRun, 3), fixed(f.otherCores, 2)]),
  );
  const bare = beside.find((f) => f.variant.startsWith('bare'));
  const broadcast = beside.find((f) => f.variant.startsWith('service'));
  for (const f of figures) {
    const ratios = [bare ? `${((f.perSecond / bare.emailsPerSecond) * 100).toFixed(1)} % of the bare floor's rows/s` : null, broadcast ? `${((f.perSecond / broadcast.emailsPerSecond) * 100).toFixed(1)} % of the broadcast hand-off's emails/s` : null].filter(Boolean);
    console.log(`${f.phase}: ${f.perSecond.toFixed(0)}/s${ratios.length ? ` = ${ratios.join(', ')}` : ''}. ${f.checks}.`);
  }
}

export async function runAutomationsSuite(): Promise<void> {
  const started = Date.now();
  noteLoadAverage();
  // The broadcast beside it: one worker process, the pooled relay, time-boxed.
  broadcastSettings.fanOutProcesses = [1];
  broadcastSettings.deliverPaths = ['relay'];
  broadcastSettings.deliverSeconds = settings.deliverSeconds;
  const world = await setUp();
  const report: Record<string, unknown> = { date: new Date().toISOString(), machine: machineInfo(), settings: { ...settings, contacts: broadcastSettings.contacts }, seedSeconds: world.seedSeconds };

  const beside: HandOffFigure[] = [];
  const delivery: DeliveryFigure[] = [];
  if (settings.beside) {
    if (broadcastSettings.bare) beside.push(await bareHandOff(world));
    beside.push(await serviceHandOff(world, 1, 0));
    delivery.push(await serviceDelivery(world, 'relay', 1));
    printHandOff(beside);
    printDelivery(delivery);
  }
  const phases = await runAutomation(world);
  printPhases(phases, beside);
  report.automation = phases;
  report.broadcastHandOff = beside;
  report.broadcastDelivery = delivery;

  const busiest = Math.max(0, ...phases.map((f) => f.otherCores ?? 0));
  if (busiest > 0.2) console.log(`WARNING: other processes used up to ${busiest.toFixed(2)} of ${os.cpus().length} cores during a measured phase; rates are then low. Re-run on a quiet machine.`);
  report.loadAverageAtEnd = os.loadavg()[0];
  report.wallSeconds = Math.round((Date.now() - started) / 100) / 10;
  writeResult('automations-latest.json', report);
  log(`wrote bench/results/automations-latest.json (${report.wallSeconds} s)`);
}
