/**
 * The bench's baseline (issue 13): what this hardware allows for a read that a multi-instance service must check
 * for freshness. A bare Fastify + mysql2 server that, for each URL, runs ONE prepared statement (the settings mark,
 * as the service's freshness check reads it) and sends the very bytes the service sent for that URL, captured by
 * bench/run.ts into BASELINE_ANSWERS (a JSON file: url → {contentType, body}).
 * Started by bench/run.ts as its own process: BASELINE_PORT, BASELINE_DATABASE_URL, BASELINE_ANSWERS.
 */
import fs from 'node:fs';
import Fastify from 'fastify';
import mysql from 'mysql2/promise';

const answers = JSON.parse(fs.readFileSync(process.env.BASELINE_ANSWERS!, 'utf8')) as Record<string, { contentType: string; body: string }>;
const pool = mysql.createPool({ uri: process.env.BASELINE_DATABASE_URL!, connectionLimit: 20 });
const app = Fastify();

app.get('/*', async (request, reply) => {
  await pool.execute('SELECT `version` FROM `change_marks` WHERE `name` = ?', ['settings']);
  const answer = answers[request.url];
  if (!answer) return reply.status(404).send('');
  return reply.header('content-type', answer.contentType).send(answer.body);
});

await app.listen({ port: Number(process.env.BASELINE_PORT), host: '127.0.0.1' });
process.on('SIGTERM', () => void app.close().then(() => pool.end()).then(() => process.exit(0)));
