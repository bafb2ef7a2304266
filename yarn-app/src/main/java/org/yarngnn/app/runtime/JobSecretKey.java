package org.yarngnn.app.runtime;

import java.io.IOException;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;
import org.yarngnn.app.transport.TransportSecret;

/**
 * The job's transport secret, shipped the YARN way (as Spark ships its authentication secret): the client adds a
 * fresh one to the application's {@link Credentials} as a secret key; the ResourceManager hands those credentials
 * to the ApplicationMaster's container, the AM passes its own on to every worker container it launches, and
 * Hadoop loads them into each container's current user. So the key is never on a command line, in an environment
 * variable or in a staged file, and the NodeManager keeps the token file private to the application's user.
 */
public final class JobSecretKey {
  /** The secret key's alias in the credentials. */
  public static final Text ALIAS = new Text("yarngnn.transport.secret");

  private JobSecretKey() {}

  /** Adds a fresh secret to {@code creds} (the client, once per application); returns it. */
  public static TransportSecret addNew(Credentials creds) {
    TransportSecret s = TransportSecret.generate();
    creds.addSecretKey(ALIAS, s.bytes());
    return s;
  }

  /** The secret of {@code creds}. */
  public static TransportSecret read(Credentials creds) {
    byte[] key = creds.getSecretKey(ALIAS);
    if (key == null) {
      throw new IllegalStateException("the container's credentials hold no " + ALIAS + ": not launched by yarn-gnn's"
          + " client and ApplicationMaster");
    }
    return TransportSecret.of(key);
  }

  /** The secret in this container's credentials (the AM's or a worker's). */
  public static TransportSecret ofCurrentUser() throws IOException {
    return read(UserGroupInformation.getCurrentUser().getCredentials());
  }
}
