/**
 * Property tests draw new cases on every run at a desk, so each run can find a new counterexample;
 * under CI they draw the same cases every time (`FC_SEED`, or the fixed seed below), so the gate that
 * decides whether a change lands fails for a change, not for the luck of a draw. A counterexample
 * found at a desk becomes a named case in its test.
 */
import fc from "fast-check";

const CI_SEED = 20261202;

if (process.env.CI) fc.configureGlobal({ seed: Number(process.env.FC_SEED ?? CI_SEED) });
