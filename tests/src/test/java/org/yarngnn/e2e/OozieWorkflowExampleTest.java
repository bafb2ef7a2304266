package org.yarngnn.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.Reader;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.validation.Schema;
import javax.xml.validation.SchemaFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Attr;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NamedNodeMap;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;
import org.yarngnn.app.Main;
import org.yarngnn.e2e.cluster.MiniClusters;

/**
 * scripts/oozie: workflow.xml is valid against Oozie's own workflow schema (oozie-workflow-1.0.xsd from the
 * published oozie-client jar), job.properties defines every variable it uses, its transitions form a workflow
 * Oozie accepts, and its java action's command line is one yarn-gnn runs: with the variables bound to a tiny
 * graph, the same arguments give exit 0 and _SUCCESS, and with a missing table exit 2, the status the
 * workflow routes to its bad-input kill node. Here rather than in yarn-app: it checks scripts of the repository
 * against the shipped jar's manifest, like the other end-to-end tests; it needs no cluster.
 */
class OozieWorkflowExampleTest {
  private static final String WF_NS = "uri:oozie:workflow:1.0";
  private static final String XSD = "oozie-workflow-1.0.xsd";
  /** EL words and constants that are not variables (Oozie's EL: JSP 2.0 operators plus its size constants). */
  private static final Set<String> EL_WORDS = Set.of("eq", "ne", "lt", "gt", "le", "ge", "and", "or", "not",
      "empty", "div", "mod", "true", "false", "null", "KB", "MB", "GB", "TB", "PB");
  /** Set by Oozie for every job, not by job.properties. */
  private static final Set<String> OOZIE_PROVIDED = Set.of("user.name");
  private static final Pattern EXPRESSION = Pattern.compile("\\$\\{([^}]*)}");

  static Path workflowFile;
  static Document workflow;
  static Properties jobProperties;

  @BeforeAll
  static void load() throws Exception {
    Path dir = SchedulerFixture.scripts().resolve("oozie");
    workflowFile = dir.resolve("workflow.xml");
    workflow = parse(workflowFile);
    jobProperties = new Properties();
    try (Reader r = Files.newBufferedReader(dir.resolve("job.properties"), StandardCharsets.ISO_8859_1)) {
      jobProperties.load(r);
    }
  }

  @Test
  void workflowIsValidAgainstOoziesPublishedSchema() throws Exception {
    URL xsd = getClass().getClassLoader().getResource(XSD);
    assertNotNull(xsd, XSD + " is not on the test classpath (org.apache.oozie:oozie-client)");
    assertTrue(xsd.toString().contains("oozie-client"), "the schema comes from Oozie's client jar: " + xsd);
    Schema schema = schema(xsd);
    schema.newValidator().validate(new DOMSource(workflow));

    // The same validator refuses a broken workflow: an action without its error transition.
    Document broken = parse(workflowFile);
    Element infer = action(broken, "infer");
    infer.removeChild(child(infer, "error"));
    SAXException e = assertThrows(SAXException.class, () -> schema.newValidator().validate(new DOMSource(broken)));
    assertTrue(e.getMessage().contains("error"), e.getMessage());
  }

  @Test
  void jobPropertiesDefineEveryVariableAndNothingElse() {
    Set<String> used = new TreeSet<>();
    forEachText(workflow.getDocumentElement(), t -> used.addAll(variables(t)));
    Set<String> missing = new TreeSet<>(used);
    missing.removeAll(jobProperties.stringPropertyNames());
    assertTrue(missing.isEmpty(), "workflow.xml uses variables job.properties does not define: " + missing);

    Set<String> referenced = new TreeSet<>(used);
    for (String name : jobProperties.stringPropertyNames()) {
      Set<String> refs = variables(jobProperties.getProperty(name));
      referenced.addAll(refs);
      for (String r : refs) {
        assertTrue(jobProperties.containsKey(r) || OOZIE_PROVIDED.contains(r),
            "job.properties: " + name + " uses ${" + r + "}, which nothing defines");
      }
    }
    for (String name : jobProperties.stringPropertyNames()) {
      assertTrue(name.startsWith("oozie.") || referenced.contains(name),
          "job.properties defines " + name + ", which neither workflow.xml nor another property uses");
    }
  }

  @Test
  void transitionsNameNodesEveryNodeIsReachableAndErrorsEndInKillNodes() {
    Map<String, Element> nodes = nodes();
    Map<String, List<String>> next = new LinkedHashMap<>();
    for (Map.Entry<String, Element> n : nodes.entrySet()) {
      List<String> targets = new ArrayList<>();
      forEachElement(n.getValue(), e -> {
        String attr = e.getLocalName().equals("path") ? "start" : "to";
        if (e.hasAttribute(attr) && !e.getLocalName().equals("start")) {
          targets.add(e.getAttribute(attr));
        }
      });
      for (String t : targets) {
        assertTrue(nodes.containsKey(t), n.getKey() + " goes to " + t + ", which is no node");
      }
      next.put(n.getKey(), targets);
    }
    String start = child(workflow.getDocumentElement(), "start").getAttribute("to");
    Set<String> reached = reachable(start, next);
    assertEquals(nodes.keySet(), reached, "every node is reachable from start");

    for (Element a : elements(workflow.getDocumentElement(), "action")) {
      String onError = child(a, "error").getAttribute("to");
      for (String end : terminals(onError, next)) {
        assertEquals("kill", nodes.get(end).getLocalName(), a.getAttribute("name") + "'s error path ends in " + end);
      }
    }
    String onOk = child(action(workflow, "infer"), "ok").getAttribute("to");
    assertTrue(reachable(onOk, next).contains("publish"), "infer's success leads to the downstream action");
  }

  @Test
  void badInputGoesToItsOwnKillNodeAndRetriesAreBounded() {
    Element infer = action(workflow, "infer");
    Element decision = node("decision", child(infer, "error").getAttribute("to"));
    Element badCase = null;
    for (Element c : elements(child(decision, "switch"), "case")) {
      Matcher m = Pattern.compile("\\$\\{wf:errorCode\\('infer'\\) eq '(\\d+)'}").matcher(c.getTextContent().trim());
      if (m.matches() && Integer.parseInt(m.group(1)) == Main.BAD_INPUT) {
        badCase = c;
      }
    }
    assertNotNull(badCase, "the decision after infer's error tests wf:errorCode('infer') eq '" + Main.BAD_INPUT + "'");
    Element badKill = node("kill", badCase.getAttribute("to"));
    assertTrue(child(badKill, "message").getTextContent().contains("exit status " + Main.BAD_INPUT),
        "the bad-input kill message names the exit status");
    Element otherKill = node("kill", child(child(decision, "switch"), "default").getAttribute("to"));
    assertTrue(child(otherKill, "message").getTextContent().contains("${wf:errorCode('infer')}"),
        "the other failures' kill message shows the exit status");

    int retryMax = Integer.parseInt(resolve(infer.getAttribute("retry-max"), Map.of()));
    int interval = Integer.parseInt(resolve(infer.getAttribute("retry-interval"), Map.of()));
    // Oozie caps retry-max at oozie.service.LiteWorkflowStoreService.user.retry.max, 3 by default.
    assertTrue(retryMax >= 1 && retryMax <= 3, "retry-max " + retryMax);
    assertTrue(interval >= 1, "retry-interval (minutes) " + interval);
  }

  @Test
  void javaActionRunsTheShippedJarsMainWithOptionsInferKnows() throws Exception {
    Element java = child(action(workflow, "infer"), "java");
    String mainClass = child(java, "main-class").getTextContent().trim();
    try (JarFile jar = new JarFile(new File(MiniClusters.shippedJar().toUri()))) {
      assertEquals(jar.getManifest().getMainAttributes().getValue("Main-Class"), mainClass,
          "the main class `yarn jar` runs");
    }
    Method main = Class.forName(mainClass).getMethod("main", String[].class);
    assertTrue(Modifier.isStatic(main.getModifiers()));

    List<String> args = args(java);
    assertEquals("infer", args.get(0));
    CliRun help = CliRun.of("infer", "--help");
    assertEquals(0, help.status(), help.toString());
    for (String a : args) {
      if (a.startsWith("--")) {
        assertTrue(Pattern.compile("(^|\\s)" + Pattern.quote(a) + "(\\s|$)", Pattern.MULTILINE)
            .matcher(help.out()).find(), "infer has no option " + a + ":\n" + help.out());
      }
    }
  }

  @Test
  void theActionsCommandLineInfersAndRefusesBadInputWithExit2(@TempDir Path dir) throws Exception {
    SchedulerFixture.TinyGraph g = SchedulerFixture.tinyGraph(dir);
    Path out = dir.resolve("embeddings");
    Map<String, String> bound = new HashMap<>();
    bound.put("edgesTable", g.edges().toString());
    bound.put("nodesTable", g.nodes().toString());
    bound.put("modelDir", g.model().toString());
    bound.put("embeddingsDir", out.toString());
    bound.put("workers", "2");
    List<String> args = args(child(action(workflow, "infer"), "java"));

    CliRun ok = CliRun.of(resolved(args, bound));
    assertEquals(0, ok.status(), ok.toString());
    assertTrue(Files.isRegularFile(out.resolve("_SUCCESS")), "the file the downstream decision tests");

    // A rerun (oozie job -rerun, or a retry) over the committed output succeeds: the action passes --overwrite.
    CliRun again = CliRun.of(resolved(args, bound));
    assertEquals(0, again.status(), again.toString());

    bound.put("nodesTable", dir.resolve("no-such-nodes").toString());
    CliRun bad = CliRun.of(resolved(args, bound));
    assertEquals(Main.BAD_INPUT, bad.status(), bad.toString());
    assertTrue(bad.err().contains("no-such-nodes"), "one line naming the table: " + bad.err());
    assertTrue(Files.isRegularFile(out.resolve("_SUCCESS")), "the refused run left the previous output alone");
  }

  // ---- reading the workflow

  private static String[] resolved(List<String> args, Map<String, String> bound) {
    List<String> r = new ArrayList<>();
    for (String a : args) {
      r.add(resolve(a, bound));
    }
    if (SchedulerFixture.clusterConfigured()) {
      r.add("--local"); // this JVM sees a cluster configuration: keep the check in this JVM
    }
    return r.toArray(new String[0]);
  }

  /** ${name} from bound, else job.properties (recursively); ${wf:id()} as Oozie would fill it; nothing else. */
  private static String resolve(String text, Map<String, String> bound) {
    Matcher m = EXPRESSION.matcher(text);
    StringBuilder sb = new StringBuilder();
    while (m.find()) {
      String expr = m.group(1).trim();
      String value;
      if (expr.equals("wf:id()")) {
        value = "0000001-000000000000000-oozie-oozi-W";
      } else if (bound.containsKey(expr)) {
        value = bound.get(expr);
      } else if (jobProperties.containsKey(expr)) {
        value = resolve(jobProperties.getProperty(expr), bound);
      } else {
        throw new AssertionError("cannot resolve ${" + expr + "} in " + text);
      }
      m.appendReplacement(sb, Matcher.quoteReplacement(value));
    }
    m.appendTail(sb);
    return sb.toString();
  }

  /** The variables an EL text uses: identifiers outside string literals that are not functions or EL words. */
  static Set<String> variables(String text) {
    Set<String> vars = new LinkedHashSet<>();
    Matcher m = EXPRESSION.matcher(text);
    while (m.find()) {
      String e = m.group(1);
      int i = 0;
      while (i < e.length()) {
        char c = e.charAt(i);
        if (c == '\'' || c == '"') {
          int close = e.indexOf(c, i + 1);
          assertTrue(close > 0, "unclosed string in ${" + e + "}");
          i = close + 1;
        } else if (Character.isLetter(c) || c == '_') {
          int j = i;
          while (j < e.length() && (Character.isLetterOrDigit(e.charAt(j)) || "_.".indexOf(e.charAt(j)) >= 0)) {
            j++;
          }
          String id = e.substring(i, j);
          int k = j;
          while (k < e.length() && e.charAt(k) == ' ') {
            k++;
          }
          boolean function = k < e.length() && (e.charAt(k) == '(' || e.charAt(k) == ':');
          if (k < e.length() && e.charAt(k) == ':') {
            // a namespaced function (wf:id, fs:exists): skip the name after the colon too
            j = k + 1;
            while (j < e.length() && (Character.isLetterOrDigit(e.charAt(j)) || e.charAt(j) == '_')) {
              j++;
            }
          }
          if (!function && !EL_WORDS.contains(id)) {
            vars.add(id);
          }
          i = j;
        } else {
          i++;
        }
      }
    }
    return vars;
  }

  private static Map<String, Element> nodes() {
    Map<String, Element> nodes = new LinkedHashMap<>();
    for (Element e : elements(workflow.getDocumentElement(), null)) {
      if (e.hasAttribute("name") && Set.of("action", "decision", "fork", "join", "kill", "end")
          .contains(e.getLocalName())) {
        assertFalse(nodes.containsKey(e.getAttribute("name")), "two nodes named " + e.getAttribute("name"));
        nodes.put(e.getAttribute("name"), e);
      }
    }
    return nodes;
  }

  private static Set<String> reachable(String from, Map<String, List<String>> next) {
    Set<String> seen = new LinkedHashSet<>();
    ArrayDeque<String> todo = new ArrayDeque<>(List.of(from));
    while (!todo.isEmpty()) {
      String n = todo.pop();
      if (seen.add(n)) {
        todo.addAll(next.getOrDefault(n, List.of()));
      }
    }
    return seen;
  }

  private static Set<String> terminals(String from, Map<String, List<String>> next) {
    Set<String> t = new TreeSet<>();
    for (String n : reachable(from, next)) {
      if (next.getOrDefault(n, List.of()).isEmpty()) {
        t.add(n);
      }
    }
    return t;
  }

  private static List<String> args(Element java) {
    List<String> args = new ArrayList<>();
    for (Element a : elements(java, "arg")) {
      args.add(a.getTextContent());
    }
    return args;
  }

  private static Element action(Document d, String name) {
    for (Element a : elements(d.getDocumentElement(), "action")) {
      if (a.getAttribute("name").equals(name)) {
        return a;
      }
    }
    throw new AssertionError("no action " + name);
  }

  private static Element node(String kind, String name) {
    Element e = nodes().get(name);
    assertNotNull(e, "no node " + name);
    assertEquals(kind, e.getLocalName(), name);
    return e;
  }

  private static Element child(Element parent, String name) {
    List<Element> l = elements(parent, name);
    assertEquals(1, l.size(), parent.getLocalName() + " has one " + name);
    return l.get(0);
  }

  /** Direct child elements in the workflow namespace (all of them when name is null). */
  private static List<Element> elements(Element parent, String name) {
    List<Element> l = new ArrayList<>();
    for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e && WF_NS.equals(e.getNamespaceURI())
          && (name == null || name.equals(e.getLocalName()))) {
        l.add(e);
      }
    }
    return l;
  }

  private static void forEachElement(Element root, java.util.function.Consumer<Element> f) {
    f.accept(root);
    NodeList all = root.getElementsByTagNameNS("*", "*");
    for (int i = 0; i < all.getLength(); i++) {
      f.accept((Element) all.item(i));
    }
  }

  /** Every attribute value and text node (comments excluded: they are not part of the workflow). */
  private static void forEachText(Node n, java.util.function.Consumer<String> f) {
    if (n.getNodeType() == Node.TEXT_NODE || n.getNodeType() == Node.CDATA_SECTION_NODE) {
      f.accept(n.getNodeValue());
    }
    NamedNodeMap attrs = n.getAttributes();
    for (int i = 0; attrs != null && i < attrs.getLength(); i++) {
      f.accept(((Attr) attrs.item(i)).getValue());
    }
    for (Node c = n.getFirstChild(); c != null; c = c.getNextSibling()) {
      forEachText(c, f);
    }
  }

  private static Document parse(Path file) throws Exception {
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setNamespaceAware(true);
    f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
    f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    return f.newDocumentBuilder().parse(file.toFile());
  }

  private static Schema schema(URL xsd) throws SAXException {
    SchemaFactory f = SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI);
    // The workflow schema includes oozie-common-1.0.xsd beside it in the same jar; nothing else is fetched.
    f.setProperty(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "jar,file");
    f.setProperty(XMLConstants.ACCESS_EXTERNAL_DTD, "");
    try {
      return f.newSchema(xsd);
    } catch (SAXException e) {
      fail("Oozie's " + xsd + " does not load: " + e.getMessage());
      throw e;
    }
  }
}
