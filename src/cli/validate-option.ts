/**
 * `--validate`, as kubectl spells it, shared by the commands that send a request body (lint,
 * default, status): the fieldValidation the simulated request carries.
 */
import { InvalidArgumentError, Option, type Command } from 'commander';
import { KUBECTL_FIELD_VALIDATION, parseValidateFlag, type FieldValidation } from '../core/field-validation.js';

function validateArg(v: string): FieldValidation {
  const d = parseValidateFlag(v);
  // kubectl's own words for a value it refuses
  if (d === undefined) throw new InvalidArgumentError(`invalid - validate option "${v}"; must be one of: strict (or true), warn, ignore (or false)`);
  return d;
}

/** Adds --validate=strict|warn|ignore (a bare --validate is strict: see bareValidate). */
export function addValidateOption(cmd: Command): Command {
  return cmd.addOption(
    new Option(
      '--validate <mode>',
      'field validation of the request, as kubectl sends it: strict (unknown fields fail with 400 BadRequest), warn (pruned with a warning) or ignore (pruned silently); true = strict, false = ignore',
    )
      .argParser(validateArg)
      .default(KUBECTL_FIELD_VALIDATION, 'strict, as kubectl'),
  );
}

/**
 * kubectl's flag library gives a bare `--validate` its default value and never takes the next
 * argument as the value (`--validate crds/` is strict, then a path); commander would take it, so
 * a bare `--validate` is spelled out before parsing (nothing after `--` is touched).
 */
export function bareValidate(argv: readonly string[]): string[] {
  const end = argv.indexOf('--');
  return argv.map((a, i) => (a === '--validate' && (end < 0 || i < end) ? '--validate=strict' : a));
}

/** The option's value from commander's options record. */
export function readValidateOption(o: Record<string, unknown>): FieldValidation {
  const v = o['validate'];
  return v === 'Strict' || v === 'Warn' || v === 'Ignore' ? v : KUBECTL_FIELD_VALIDATION;
}
