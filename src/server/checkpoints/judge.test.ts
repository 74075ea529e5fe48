import { describe, expect, it } from 'vitest';
import { AnswerShapeError, coveredSeconds, judge, mergeInto } from './judge';

const single = { kind: 'single' as const, choices: ['a', 'b', 'c'], answers: [1] };
const multiple = { kind: 'multiple' as const, choices: ['a', 'b', 'c'], answers: [0, 2] };
const output = { kind: 'output' as const, choices: [], answers: ['1\n2\n3', 'one two'] };

describe('judge', () => {
  it('takes the one right choice, and refuses a choice that is not one', () => {
    expect(judge(single, 1)).toBe(true);
    expect(judge(single, 0)).toBe(false);
    expect(() => judge(single, 3)).toThrow(AnswerShapeError);
    expect(() => judge(single, [1])).toThrow(AnswerShapeError);
  });

  it('takes exactly the right choices in any order', () => {
    expect(judge(multiple, [2, 0])).toBe(true);
    expect(judge(multiple, [0])).toBe(false);
    expect(judge(multiple, [0, 1, 2])).toBe(false);
    expect(() => judge(multiple, 'x')).toThrow(AnswerShapeError);
  });

  it('compares outputs after normalising line ends and trailing spaces, any accepted one', () => {
    expect(judge(output, '1\r\n2  \r\n3\n\n')).toBe(true);
    expect(judge(output, 'one two\t')).toBe(true);
    expect(judge(output, ' 1\n2\n3')).toBe(false);
    expect(judge(output, '1 2 3')).toBe(false);
    expect(() => judge(output, 1)).toThrow(AnswerShapeError);
  });
});

describe('rewatch coverage', () => {
  it('merges played ranges clipped to the part and counts what they cover', () => {
    const merged = mergeInto(
      [[10, 14]],
      [
        [13.8, 20],
        [25, 40],
      ],
      10,
      30,
    );
    expect(merged).toEqual([
      [10, 20],
      [25, 30],
    ]);
    expect(coveredSeconds(merged, 10, 30)).toBe(15);
  });
});
