import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * By hand: the classification field is a single select, as in Bugzilla 5.0 (Bugzilla::Field's DEFAULT_FIELDS, and
 * what an import from Bugzilla writes); installs before it had left the type unknown (0), so Get Fields gave it no
 * values. Only that type is changed: a database that already says 2 is left as it is.
 */
export class ClassificationFieldType1795740000000 implements MigrationInterface {
  name = 'ClassificationFieldType1795740000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("UPDATE fielddefs SET type = 2 WHERE name = 'classification' AND type = 0");
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("UPDATE fielddefs SET type = 0 WHERE name = 'classification' AND type = 2");
  }
}
