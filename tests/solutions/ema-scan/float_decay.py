# fails: uses-scan, does-not-grow-with-T, decay-traced, cases
# message: turns a traced value into a number \(float\(decay\)
# decay made a Python float: under jit it is abstract, so the trace stops.
import jax


def ema(xs, decay):
    beta = float(decay)

    def step(m, x):
        m = beta * m + (1 - beta) * x
        return m, m

    last, rest = jax.lax.scan(step, xs[0], xs[1:])
    return {"all": rest, "last": last}
