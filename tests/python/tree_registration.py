# Pytrees registered as JAX 0.11 registers them (a dataclass by its fields,
# static ones in the treedef; a class with tree_flatten / tree_unflatten;
# tree_util.Partial, whose arguments are leaves) passing through jit, their
# treedefs printed as jaxlib prints them, and jax.jacobian (jacrev) and
# jax.device_get (numpy arrays on the host).
import dataclasses, functools
import jax, jax.numpy as jnp
from jax.tree_util import Partial, register_dataclass, register_pytree_node_class

print(jax.jacobian(lambda x: x ** 2)(jnp.array([1.0, 2.0])))
print(type(jax.device_get(jnp.arange(3))).__name__, jax.device_get({"a": jnp.ones(2), "b": 3}))

@register_dataclass
@dataclasses.dataclass
class Params:
    w: jax.Array
    n: int = dataclasses.field(metadata=dict(static=True))

p = Params(jnp.ones(2), 3)
print(jax.tree.leaves(p), jax.jit(lambda q: q.w * q.n)(p))

@register_pytree_node_class
class Box:
    def __init__(self, v): self.v = v
    def tree_flatten(self): return (self.v,), None
    @classmethod
    def tree_unflatten(cls, aux, ch): return cls(*ch)

print(jax.jit(lambda b: Box(b.v + 1))(Box(jnp.zeros(2))).v)
f = Partial(jnp.add, jnp.ones(2))
print(jax.jit(lambda g, x: g(x))(f, jnp.arange(2.0)))
print(jax.tree.structure(p), jax.tree.structure(Box(1.0)))
import collections
Point = collections.namedtuple("Point", "x y")
print(jax.tree.structure(Point(1, 2)), jax.tree.structure(collections.OrderedDict(a=1)))
