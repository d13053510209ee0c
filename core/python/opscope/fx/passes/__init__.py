"""Passes over FX graphs: shape_prop.ShapeProp records each node's tensor shape, dtype and
strides by running the graph on example inputs."""
