// How the JS API spells JAX's names: the one conversion between them.

/** JAX's snake_case name in the JS API's camelCase ('scatter_dimension' -> 'scatterDimension'). */
export const camelCase = (name) => name.replace(/_([a-z])/g, (_, c) => c.toUpperCase());
