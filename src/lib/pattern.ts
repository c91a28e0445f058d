/**
 * `validation.pattern` of text-like fields (docs/api.md "Fields" (validation)), matched in linear time.
 *
 * Patterns are written by schema editors and run against every write, so a backtracking engine
 * would let one pattern such as `^(a+)+$` block the event loop for seconds per request. Patterns
 * are compiled by RE2JS, the JavaScript port of RE2 (no backtracking: time linear in pattern size
 * times text length), so no value can make a check slow. RE2 syntax is JavaScript's minus
 * lookaround (`(?=`, `(?!`, `(?<=`, `(?<!`) and backreferences (`\1`); such patterns are refused
 * at field creation. A value matches when the pattern is found anywhere in it, as with
 * `RegExp.prototype.test`; anchor with `^…$` to match the whole value.
 *
 * RE2JS is loaded (synchronously, its CommonJS build) on the first pattern compiled rather than at
 * start, since a process that only serves content compiles none (docs/scaling.md "Memory").
 */
import { createRequire } from 'node:module';
import type { RE2JS as RE2JSClass } from 're2js';

const require = createRequire(import.meta.url);
let re2: typeof RE2JSClass | undefined;

/** A compiled pattern. */
export interface Pattern {
  /** True when the pattern occurs in `text` (like RegExp#test). */
  test(text: string): boolean;
}

/** Compiles `source`; returns the pattern, or the reason it is refused as a message. */
export function compilePattern(source: string): Pattern | { error: string } {
  re2 ??= (require('re2js') as { RE2JS: typeof RE2JSClass }).RE2JS;
  try {
    const re = re2.compile(source);
    return { test: (text: string) => re.matcher(text).find() };
  } catch (e) {
    const reason = e instanceof Error ? e.message.replace(/^error parsing regexp: /, '') : 'invalid';
    return { error: `is not a supported regular expression (${reason}); patterns use RE2 syntax, which has no lookaround or backreferences` };
  }
}
