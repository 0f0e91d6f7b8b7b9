package dev.idempotency.metrics;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * Counts every outcome per operation and publishes the counts over JMX, one MBean per operation, in the
 * platform MBean server (which WildFly and Open Liberty both expose). Always on: JMX needs no dependency.
 *
 * <p>Thread-safe.
 */
public final class JmxMetrics implements OutcomeListener {
    public static final String DOMAIN = "dev.idempotency";
    private static final Logger LOG = Logger.getLogger(JmxMetrics.class.getName());

    private final Map<String, OperationCounters> counters = new LinkedHashMap<>();
    private final Map<String, ObjectName> names = new LinkedHashMap<>();

    /** Registers one MBean per operation; a name already taken (a second deployment) is logged and skipped. */
    public JmxMetrics(String application, List<String> operations) {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        for (String operation : operations) {
            OperationCounters operationCounters = new OperationCounters(operation);
            counters.put(operation, operationCounters);
            try {
                ObjectName name = objectName(application, operation);
                server.registerMBean(operationCounters, name);
                names.put(operation, name);
            } catch (JMException e) {
                LOG.log(Level.WARNING, "the JMX counters of " + operation + " could not be registered", e);
            }
        }
    }

    /** {@code dev.idempotency:type=Operation,application="/sample",name="debit:v1"}. */
    public static ObjectName objectName(String application, String operation) throws JMException {
        return new ObjectName(DOMAIN + ":type=Operation,application="
                + ObjectName.quote(application.isEmpty() ? "/" : application) + ",name=" + ObjectName.quote(operation));
    }

    /** The operations counted, in configuration order. */
    public List<String> operations() {
        return Collections.unmodifiableList(new ArrayList<>(counters.keySet()));
    }

    /** The counters of one operation on this node. */
    public OperationCounters countersOf(String operation) {
        return counters.get(operation);
    }

    @Override
    public void requestEnded(String operation, Outcome outcome) {
        OperationCounters operationCounters = counters.get(operation);
        if (operationCounters != null) {
            operationCounters.increment(outcome);
        }
    }

    @Override
    public void waitedForDuplicate(String operation, Duration waited) {
        OperationCounters operationCounters = counters.get(operation);
        if (operationCounters != null) {
            operationCounters.waited(waited);
        }
    }

    /** Unregisters the MBeans; the application is going away. */
    public void stop() {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        for (ObjectName name : names.values()) {
            try {
                server.unregisterMBean(name);
            } catch (JMException e) {
                LOG.log(Level.FINE, "already unregistered: " + name, e);
            }
        }
    }
}
