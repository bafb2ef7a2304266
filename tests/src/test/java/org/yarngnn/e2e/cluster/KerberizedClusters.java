package org.yarngnn.e2e.cluster;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.MiniDFSNNTopology;
import org.apache.hadoop.minikdc.MiniKdc;
import org.apache.hadoop.security.SecurityUtil;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.ssl.KeyStoreTestUtil;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.MiniYARNCluster;

/**
 * A Kerberized cluster in this JVM: a MiniKdc, a MiniDFSCluster with two namespaces (federated NameNodes on one
 * DataNode) and a MiniYARNCluster, every service logging in from a keytab. HDFS has block access tokens and
 * SASL-protected data transfer with HTTPS-only web endpoints (so the DataNode needs no privileged ports); YARN's
 * ResourceManager renews the applications' delegation tokens. All services share one principal, {@code
 * hadoop/localhost}: Hadoop's login user is one per JVM, and each RPC server accepts only its login user's
 * principal. Clients run in their own JVMs, logged in as {@link #clientPrincipal()} from {@link #clientKeytab()},
 * and see the cluster through {@link #confDir()} and {@link #krb5Conf()}.
 *
 * <p>The JVM's Kerberos configuration and Hadoop's login are process-wide: start one per test JVM, first.
 */
public final class KerberizedClusters implements AutoCloseable {
  public static final String CLIENT = "etl";

  private final MiniKdc kdc;
  private final MiniDFSCluster dfs;
  private final MiniYARNCluster yarn;
  private final File baseDir;
  private final File clientKeytab;
  private final Configuration conf;
  private final String sslConfDir;

  private KerberizedClusters(MiniKdc kdc, MiniDFSCluster dfs, MiniYARNCluster yarn, File baseDir,
      File clientKeytab, String sslConfDir) {
    this.kdc = kdc;
    this.dfs = dfs;
    this.yarn = yarn;
    this.baseDir = baseDir;
    this.clientKeytab = clientKeytab;
    this.sslConfDir = sslConfDir;
    this.conf = new YarnConfiguration(yarn.getConfig());
    // MiniDFSCluster's rack mapping is a test class that a client's configuration must not name.
    conf.set(CommonConfigurationKeysPublic.NET_TOPOLOGY_NODE_SWITCH_MAPPING_IMPL_KEY,
        "org.apache.hadoop.net.ScriptBasedMapping");
  }

  /** Starts the KDC, HDFS and YARN under {@code <build dir>/minicluster/<name>}; {@code settings} goes to YARN. */
  public static KerberizedClusters start(String name, Consumer<? super YarnConfiguration> settings)
      throws Exception {
    File base = new File(new File(System.getProperty("yarngnn.build.dir", "target"), "minicluster"), name)
        .getAbsoluteFile();
    FileUtil.fullyDelete(base);
    File kdcDir = new File(base, "kdc");
    if (!kdcDir.mkdirs()) {
      throw new IOException("cannot create " + kdcDir);
    }
    System.setProperty("test.build.data", new File(base, "data").getAbsolutePath());
    MiniKdc kdc = new MiniKdc(MiniKdc.createConf(), kdcDir);
    kdc.start();
    MiniDFSCluster dfs = null;
    MiniYARNCluster yarn = null;
    String sslConfDir = null;
    try {
      String realm = kdc.getRealm();
      File serviceKeytab = new File(kdcDir, "hadoop.keytab");
      kdc.createPrincipal(serviceKeytab, "hadoop/localhost", "HTTP/localhost");
      File clientKeytab = new File(kdcDir, CLIENT + ".keytab");
      kdc.createPrincipal(clientKeytab, CLIENT);
      String service = "hadoop/localhost@" + realm;
      String http = "HTTP/localhost@" + realm;
      String keytab = serviceKeytab.getAbsolutePath();

      Configuration c = new Configuration();
      SecurityUtil.setAuthenticationMethod(UserGroupInformation.AuthenticationMethod.KERBEROS, c);
      c.set("dfs.namenode.kerberos.principal", service);
      c.set("dfs.namenode.keytab.file", keytab);
      c.set("dfs.datanode.kerberos.principal", service);
      c.set("dfs.datanode.keytab.file", keytab);
      c.set("dfs.web.authentication.kerberos.principal", http);
      c.set("dfs.web.authentication.kerberos.keytab", keytab);
      c.setBoolean("dfs.block.access.token.enable", true);
      c.set("dfs.data.transfer.protection", "authentication");
      c.set("dfs.http.policy", "HTTPS_ONLY");
      c.set("dfs.namenode.https-address", "localhost:0");
      c.set("dfs.datanode.https.address", "localhost:0");
      c.setInt("ipc.client.connect.max.retries.on.sasl", 10);
      File keystores = new File(base, "keystores");
      if (!keystores.mkdirs()) {
        throw new IOException("cannot create " + keystores);
      }
      // The NameNode's and DataNode's HTTPS servers read ssl-server.xml from the classpath.
      sslConfDir = KeyStoreTestUtil.getClasspathDir(KerberizedClusters.class);
      KeyStoreTestUtil.setupSSLConfig(keystores.getAbsolutePath(), sslConfDir, c, false);
      c.set("dfs.client.https.keystore.resource", KeyStoreTestUtil.getClientSSLConfigFileName());
      c.set("dfs.https.server.keystore.resource", KeyStoreTestUtil.getServerSSLConfigFileName());
      c.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, new File(base, "dfs").getAbsolutePath());
      UserGroupInformation.setConfiguration(c);
      nodeSiteOnClasspath(c, sslConfDir);

      dfs = new MiniDFSCluster.Builder(c).nnTopology(MiniDFSNNTopology.simpleFederatedTopology(2))
          .numDataNodes(1).format(true).build();
      dfs.waitActive();

      YarnConfiguration y = MiniClusters.yarnSettings(dfs.getConfiguration(0));
      y.set(YarnConfiguration.RM_PRINCIPAL, service);
      y.set(YarnConfiguration.RM_KEYTAB, keytab);
      y.set(YarnConfiguration.NM_PRINCIPAL, service);
      y.set(YarnConfiguration.NM_KEYTAB, keytab);
      y.set(YarnConfiguration.RM_WEBAPP_SPNEGO_USER_NAME_KEY, http);
      y.set(YarnConfiguration.RM_WEBAPP_SPNEGO_KEYTAB_FILE_KEY, keytab);
      y.set(YarnConfiguration.NM_WEBAPP_SPNEGO_USER_NAME_KEY, http);
      y.set(YarnConfiguration.NM_WEBAPP_SPNEGO_KEYTAB_FILE_KEY, keytab);
      // Every node of a Kerberized cluster has a krb5.conf naming the realm (Hadoop refuses to start without
      // one); here the nodes are this machine, and the containers get the KDC's through the JVM's own variable.
      y.set(YarnConfiguration.NM_ADMIN_USER_ENV, "MALLOC_ARENA_MAX=$MALLOC_ARENA_MAX,JAVA_TOOL_OPTIONS="
          + "-Djava.security.krb5.conf=" + kdc.getKrb5conf().getAbsolutePath());
      settings.accept(y);
      yarn = new MiniYARNCluster(name, 1, 1, 1);
      yarn.init(y);
      yarn.start();

      KerberizedClusters clusters = new KerberizedClusters(kdc, dfs, yarn, base, clientKeytab, sslConfDir);
      clusters.prepareClientDirectories();
      clusters.writeConfDir();
      return clusters;
    } catch (Exception | Error e) {
      if (yarn != null) {
        yarn.stop();
      }
      if (dfs != null) {
        dfs.shutdown();
      }
      kdc.stop();
      throw e;
    }
  }

  /** The site file every Configuration of this JVM loads, as a node's {@code /etc/hadoop/conf}. */
  static final String NODE_SITE = "kerberized-node-site.xml";

  /**
   * The cluster's security settings as a default resource of every Configuration in this JVM: what a real
   * NodeManager finds in its {@code /etc/hadoop/conf}. Its localizer reads the job's files from HDFS with a
   * configuration of its own, and without SASL data transfer the DataNode refuses it.
   */
  private static void nodeSiteOnClasspath(Configuration c, String classpathDir) throws IOException {
    Configuration site = new Configuration(false);
    for (String key : new String[] {"hadoop.security.authentication", "dfs.namenode.kerberos.principal",
        "dfs.datanode.kerberos.principal", "dfs.block.access.token.enable", "dfs.data.transfer.protection",
        "dfs.http.policy"}) {
      site.set(key, c.get(key));
    }
    try (OutputStream out = new FileOutputStream(new File(classpathDir, NODE_SITE))) {
      site.writeXml(out);
    }
    Configuration.addDefaultResource(NODE_SITE);
  }

  /** The client's home on the default namespace, and world-writable roots (sticky /tmp) on both. */
  private void prepareClientDirectories() throws IOException {
    for (int nn = 0; nn < 2; nn++) {
      FileSystem fs = fs(nn);
      fs.setPermission(new Path("/"), new FsPermission((short) 0777));
      fs.mkdirs(new Path("/tmp"));
      fs.setPermission(new Path("/tmp"), new FsPermission((short) 01777));
    }
    Path home = new Path("/user/" + CLIENT);
    fs(0).mkdirs(home);
    fs(0).setOwner(home, CLIENT, "supergroup");
  }

  /** The cluster's client configuration (default FileSystem: namespace 0), Kerberos on. */
  public Configuration conf() {
    return new YarnConfiguration(conf);
  }

  /** A FileSystem of namespace {@code nn} as the HDFS superuser (this JVM's login). */
  public FileSystem fs(int nn) throws IOException {
    return dfs.getFileSystem(nn);
  }

  /** {@code hdfs://host:port} of namespace {@code nn}. */
  public URI namespace(int nn) {
    return dfs.getURI(nn);
  }

  public String clientPrincipal() {
    return CLIENT + "@" + kdc.getRealm();
  }

  public File clientKeytab() {
    return clientKeytab;
  }

  /** A keytab of another principal, to show a mismatch is refused. */
  public File keytabOf(String principal) throws Exception {
    File f = new File(baseDir, "kdc/" + principal.replace('/', '_') + ".keytab");
    kdc.createPrincipal(f, principal);
    return f;
  }

  /** The KDC's krb5.conf: what {@code /etc/krb5.conf} is on a real client. */
  public File krb5Conf() {
    return kdc.getKrb5conf();
  }

  /** core-site.xml, hdfs-site.xml and yarn-site.xml of {@link #conf()}, for {@code HADOOP_CONF_DIR}. */
  public File confDir() {
    return new File(baseDir, "conf");
  }

  /** Writes {@code c} as the three site files into a new directory under this cluster's base directory. */
  public File writeConfDir(String name, Configuration c) throws IOException {
    File dir = new File(baseDir, name);
    if (!dir.mkdirs() && !dir.isDirectory()) {
      throw new IOException("cannot create " + dir);
    }
    for (String site : new String[] {"core-site.xml", "hdfs-site.xml", "yarn-site.xml", "mapred-site.xml"}) {
      try (OutputStream out = new FileOutputStream(new File(dir, site))) {
        c.writeXml(out);
      }
    }
    return dir;
  }

  /**
   * A client JVM as a user starts it: the shipped jar and Hadoop's client jars, {@code confDir} first on the
   * classpath and as HADOOP_CONF_DIR, the KDC's krb5.conf, and no Kerberos ticket cache of its own.
   */
  public ProcessBuilder client(File confDir, List<String> args) throws IOException {
    String cp = confDir.getAbsolutePath() + File.pathSeparator + new File(MiniClusters.shippedJar().toUri())
        + File.pathSeparator + MiniClusters.hadoopClasspath().replace(",", File.pathSeparator);
    List<String> cmd = new ArrayList<>(List.of(new File(System.getProperty("java.home"), "bin/java").getPath(),
        "--add-modules", "jdk.incubator.vector", "-Djava.security.krb5.conf=" + krb5Conf().getAbsolutePath(),
        "-cp", cp, "org.yarngnn.app.Main"));
    cmd.addAll(args);
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().put("HADOOP_CONF_DIR", confDir.getAbsolutePath());
    pb.environment().remove("YARN_CONF_DIR");
    pb.environment().put("KRB5CCNAME", new File(baseDir, "no-ticket-cache").getAbsolutePath());
    return pb;
  }

  private void writeConfDir() throws IOException {
    writeConfDir("conf", conf);
  }

  @Override
  public void close() throws Exception {
    try {
      yarn.stop();
      dfs.shutdown();
    } finally {
      kdc.stop();
      KeyStoreTestUtil.cleanupSSLConfig(new File(baseDir, "keystores").getAbsolutePath(), sslConfDir);
      Files.deleteIfExists(new File(sslConfDir, NODE_SITE).toPath());
    }
  }
}
