package org.yarngnn.compute.model;

/** The layer types of the model format. */
public enum LayerType {
  GCN("gcn"),
  SAGE("sage"),
  GAT("gat");

  private final String jsonName;

  LayerType(String jsonName) {
    this.jsonName = jsonName;
  }

  public String jsonName() {
    return jsonName;
  }

  public static LayerType byName(String name) {
    for (LayerType t : values()) {
      if (t.jsonName.equals(name)) {
        return t;
      }
    }
    return null;
  }
}
