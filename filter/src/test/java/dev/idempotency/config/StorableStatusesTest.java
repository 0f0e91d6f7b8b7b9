package dev.idempotency.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.ConfigurationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class StorableStatusesTest {

    @ParameterizedTest
    @ValueSource(ints = {200, 201, 202, 204, 299})
    void everySuccessIsStorable(int status) {
        assertTrue(StorableStatuses.DEFAULT.isStorable(status));
        assertTrue(StorableStatuses.parse("2xx").isStorable(status));
    }

    @ParameterizedTest
    @ValueSource(ints = {100, 199, 300, 302, 304, 400, 404, 409, 422, 500, 503})
    void byDefaultNothingButSuccessIsStorable(int status) {
        assertFalse(StorableStatuses.DEFAULT.isStorable(status));
        assertFalse(StorableStatuses.parse("2xx").isStorable(status));
    }

    @Test
    void listedRefusalsAreStorableAndOthersAreNot() {
        StorableStatuses statuses = StorableStatuses.parse("2xx, 409, 422");

        assertTrue(statuses.isStorable(409));
        assertTrue(statuses.isStorable(422));
        assertTrue(statuses.isStorable(200));
        assertFalse(statuses.isStorable(400));
        assertFalse(statuses.isStorable(404));
        assertFalse(statuses.isStorable(500));
    }

    @Test
    void toleratesCaseWhitespaceAndOrder() {
        StorableStatuses statuses = StorableStatuses.parse(" 422 ,409,  2XX ");

        assertTrue(statuses.isStorable(409));
        assertTrue(statuses.isStorable(204));
        assertEquals("2xx, 409, 422", statuses.toString());
    }

    @Test
    void printsSortedWithoutDuplicates() {
        assertEquals("2xx", StorableStatuses.DEFAULT.toString());
        assertEquals(
                "2xx, 404, 409", StorableStatuses.parse("2xx, 409, 404, 409").toString());
    }

    @ParameterizedTest
    @ValueSource(ints = {300, 301, 302, 303, 307, 308, 399})
    void redirectsAreStorableOnlyWhen3xxIsListed(int status) {
        assertFalse(StorableStatuses.DEFAULT.isStorable(status));
        assertFalse(StorableStatuses.parse("2xx, 409").isStorable(status));
        assertTrue(StorableStatuses.parse("2xx, 3xx").isStorable(status));
    }

    @Test
    void threeXxDoesNotMakeOtherStatusesStorable() {
        StorableStatuses statuses = StorableStatuses.parse("2xx, 3XX");

        assertFalse(statuses.isStorable(199));
        assertFalse(statuses.isStorable(400));
        assertFalse(statuses.isStorable(500));
        assertEquals("2xx, 3xx", statuses.toString());
        assertEquals("2xx, 3xx, 409", StorableStatuses.parse("409, 3xx, 2xx").toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"500", "503", "5xx", "4xx", "302", "303", "201", "1xx", "40", "4099", "abc", ""})
    void refusesEntriesThatAreNot2xxOrA4xxCodeNamingThem(String entry) {
        ConfigurationException e =
                assertThrows(ConfigurationException.class, () -> StorableStatuses.parse("2xx, " + entry));

        assertTrue(e.getMessage().startsWith("storable-statuses"), e.getMessage());
        assertTrue(e.getMessage().contains("'" + entry + "'"), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"409", "409, 422", "3xx"})
    void refusesAListWithout2xx(String text) {
        ConfigurationException e = assertThrows(ConfigurationException.class, () -> StorableStatuses.parse(text));

        assertTrue(e.getMessage().contains("'2xx'"), e.getMessage());
        assertTrue(e.getMessage().contains("'" + text + "'"), e.getMessage());
    }
}
