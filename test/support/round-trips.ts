import mysql from 'mysql2';

/**
 * The commands the service sent to MySQL while `work` ran, each a round trip, as their SQL text (a prepared
 * statement's execution by its text when mysql2 gives it, else the command's name). Left out: the mail worker's
 * (it claims and marks rows of mail_queue on its own schedule; a request only inserts them), and the one-time
 * preparing of a statement on a connection that had not run it yet (which of the pool's connections a request gets
 * is chance). Counted where mysql2 queues a command on a connection; in-process tests on MySQL only.
 */
export async function roundTrips(work: () => Promise<unknown>): Promise<string[]> {
  const sent: string[] = [];
  const prototype = (mysql as unknown as { Connection: { prototype: { addCommand(command: unknown): unknown } } }).Connection.prototype;
  const addCommand = prototype.addCommand;
  prototype.addCommand = function (command: { sql?: string; query?: string }) {
    const text = command.sql ?? command.query ?? command.constructor.name;
    if (command.constructor.name !== 'Prepare' && (!/mail_queue/.test(text) || /INSERT INTO `mail_queue`/.test(text))) sent.push(text);
    return addCommand.call(this, command);
  };
  try {
    await work();
  } finally {
    prototype.addCommand = addCommand;
  }
  return sent;
}

/**
 * The statements among `sent` that read bugs' visibility or stamps on their own: the ones a route's companion read
 * (BugVisibilityCompanion, the stamps companions) saves by riding in the credential's statement.
 */
export function ownBugVisibilityReads(sent: readonly string[]): string[] {
  return sent.filter((text) => /c_visible|c_revision/.test(text) && !/api_keys/.test(text));
}
