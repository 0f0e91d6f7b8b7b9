<%@ page contentType="text/html;charset=UTF-8" %>
<%@ taglib prefix="idem" uri="https://idempotency.dev/forms" %>
<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Top up a prepaid account</title></head>
<body>
<h1>Top up a prepaid account</h1>
<%-- One tag: a new key on every render, so a double click, a reload or a resubmit of this render runs once. --%>
<form method="post" action="top-ups">
  <idem:keyField/>
  <label>Account <input name="account" id="account"></label>
  <label>Amount <input name="amount" id="amount"></label>
  <button type="submit" id="pay">Top up</button>
</form>
</body>
</html>
