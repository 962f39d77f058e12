import type { MetadataStorage } from 'class-validator';

type Lookup = MetadataStorage['getTargetValidationMetadatas'];
type ValidationMetadata = ReturnType<Lookup>[number];
type Grouped = Record<string, ValidationMetadata[]>;

/**
 * Keeps the answers of class-validator's rule lookups in its metadata storage (issue 13). On every validation of
 * every object, nested ones included, class-validator looks up the class's rules by walking every class that has
 * any (`instanceof` against some hundred DTO classes) and groups them by property anew: about a tenth of a Create
 * Bug's CPU. The rules are fixed once the DTO classes are declared, so each lookup's answer is kept, and all of
 * them are forgotten whenever a rule is added (a class declared later). The kept arrays are shared: class-validator
 * only reads them.
 */
export function keepValidationLookups(storage: MetadataStorage): void {
  const lookup: Lookup = storage.getTargetValidationMetadatas.bind(storage);
  const group = storage.groupByPropertyName.bind(storage);
  const addRule = storage.addValidationMetadata.bind(storage);
  let answers = new Map<unknown, Map<string, ValidationMetadata[]>>();
  let groupings = new WeakMap<ValidationMetadata[], Grouped>();

  storage.addValidationMetadata = (metadata) => {
    answers = new Map();
    groupings = new WeakMap();
    addRule(metadata);
  };
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    const key = `${schema}\u0000${always}\u0000${strictGroups}\u0000${groups?.join('\u0001') ?? ''}`;
    let byOptions = answers.get(target);
    if (!byOptions) answers.set(target, (byOptions = new Map<string, ValidationMetadata[]>()));
    let answer = byOptions.get(key);
    if (!answer) byOptions.set(key, (answer = lookup(target, schema, always, strictGroups, groups)));
    return answer;
  };
  storage.groupByPropertyName = (metadata) => {
    let grouped = groupings.get(metadata);
    if (!grouped) groupings.set(metadata, (grouped = group(metadata)));
    return grouped;
  };
}
