package org.yarngnn.io.table;

/** Which of the contract's input tables a path holds. */
public enum TableKind { EDGES, NODES }
