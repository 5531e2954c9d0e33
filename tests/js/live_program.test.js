// The live program the requirements read (web/checker/live_program.js): the
// learner's jits inlined and dead equations removed, as JAX's dead-code
// elimination removes them (a shard_map's unused inputs and outputs, a
// scan's dead carries, xs and ys, to a fixed point), while everything the
// outputs depend on stays, with the program's inputs and outputs.
import { beforeAll, expect, test } from 'vitest';
import * as sl from '../../web/lib/index.js';
import { allEquations } from '../../web/checker/jaxpr_query.js';
import { liveProgram } from '../../web/checker/live_program.js';

const { P, lax, np } = sl;
beforeAll(() => sl.init());

const json = (f, ...shapes) => sl.makeJaxpr(f)(...shapes.map((s) => new sl.ShapeDtypeStruct(s))).toJSON();
const primitives = (p) => allEquations(p).map((e) => e.primitive);

test('dead equations go, the live ones stay with the inputs and outputs as they were', () => {
  const traced = json((x) => {
    x.mul(3); // dead
    return { y: x.add(1) };
  }, [4]);
  const live = liveProgram(traced);
  expect(primitives(traced)).toEqual(['mul', 'add']);
  expect(primitives(live)).toEqual(['add']);
  expect(live.invars).toEqual(traced.invars);
  expect(live.outvars).toEqual(traced.outvars);
});

test("a learner's jit is inlined: its equations in its place, its results named by the outputs", () => {
  const inner = sl.jit((a) => a.mul(2).add(1));
  const traced = json((x) => ({ y: inner(x).sub(1) }), [4]);
  expect(primitives(traced)).toEqual(['jit', 'mul', 'add', 'sub']);
  const live = liveProgram(traced);
  expect(primitives(live)).toEqual(['mul', 'add', 'sub']);
  // The sub reads what the jit's program computed, and the program's input is the jit's operand.
  const [mul, add, sub] = live.eqns;
  expect(mul.inputs[0].name).toBe(live.invars[0].name);
  expect(sub.inputs[0].name).toBe(add.outputs[0].name);
  expect(live.outvars[0].name).toBe(sub.outputs[0].name);
});

test("a shard_map loses the inputs its body never reads and the outputs nothing reads, with their specs", () => {
  const mesh = sl.makeMesh([8], ['data']);
  const traced = json(
    (x, unused) => {
      const [kept] = sl.shardMap((a, b) => [lax.psum(a, 'data'), b.mul(2)], { mesh, inSpecs: [P('data'), P()], outSpecs: [P(), P()] })(x, unused);
      return { y: kept };
    },
    [8, 2],
    [3],
  );
  const [sm] = liveProgram(traced).eqns;
  expect(sm.primitive).toBe('shard_map');
  expect(sm.inputs).toHaveLength(1);
  expect(sm.params.in_specs).toEqual([['data']]);
  expect(sm.params.out_specs).toHaveLength(1);
  expect(primitives(sm.params.jaxpr)).toEqual(['psum']);
  expect(sm.params.jaxpr.invars).toHaveLength(1);
});

test('a scan whose results nothing reads is gone; a live scan keeps only the carries the result needs, to a fixed point', () => {
  const dead = json((xs) => {
    lax.scan((c, x) => [c.add(x), c], np.zeros([2]), xs);
    return { y: xs.sum() };
  }, [5, 2]);
  expect(primitives(liveProgram(dead))).not.toContain('scan');
  // Carries: a (its result read), b (read by a's update), d (nothing needs it); ys dropped.
  const traced = json((xs) => {
    const [[a], ys] = lax.scan(([a, b, d], x) => [[a.add(b), b.add(x), d.mul(2)], d], [np.zeros([2]), np.zeros([2]), np.ones([2])], xs);
    return { a, ys: ys.sum() };
  }, [5, 2]);
  const scan = liveProgram(traced).eqns.find((e) => e.primitive === 'scan');
  expect(scan.params.ft_in[1]).toBe(3); // d feeds the ys, which are read
  const carriesOnly = json((xs) => {
    const [[a]] = lax.scan(([a, b, d], x) => [[a.add(b), b.add(x), d.mul(2)], d], [np.zeros([2]), np.zeros([2]), np.ones([2])], xs);
    return { a };
  }, [5, 2]);
  const pruned = liveProgram(carriesOnly).eqns.find((e) => e.primitive === 'scan');
  expect(pruned.params.ft_in).toEqual([0, 2, 1]); // a and b, and the xs; d and the ys are dead
  expect(pruned.params.ft_out).toEqual([2, 0]);
  expect(pruned.outputs).toHaveLength(2);
  expect(pruned.params.jaxpr.outvars).toHaveLength(2);
  expect(pruned.params.jaxpr.invars).toHaveLength(3); // a, b and the row of xs
});
