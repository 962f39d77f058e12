import { DefaultNamingStrategy, type NamingStrategyInterface } from 'typeorm';

const snakeCase = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** Entity properties are camelCase; their columns are the snake_case names of the schema (`loginName` → `login_name`). */
export class SnakeCaseNamingStrategy extends DefaultNamingStrategy implements NamingStrategyInterface {
  override columnName(propertyName: string, customName: string | undefined, embeddedPrefixes: string[]): string {
    return customName ?? snakeCase([...embeddedPrefixes, propertyName].join('_'));
  }
}
