<%@ page contentType="text/html;charset=UTF-8" %>
<%@ taglib prefix="idem" uri="https://idempotency.dev/forms" %>
<%-- The sample's top-up form, posting to the gated servlet of the test deployment. --%>
<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Top up (gated)</title></head>
<body>
<form method="post" action="gated-top-ups">
  <idem:keyField/>
  <input type="hidden" name="gate" value="<%= request.getParameter("gate").replaceAll("[^a-z0-9-]", "") %>">
  <label>Account <input name="account" id="account"></label>
  <label>Amount <input name="amount" id="amount"></label>
  <button type="submit" id="pay">Top up</button>
</form>
</body>
</html>
