<%@ page contentType="text/html;charset=UTF-8" isErrorPage="true" %>
<%-- The application's own page for a 422, which the filter's refusal of an edited resubmit goes through
     (sendError). The problem's type is in the request attribute dev.idempotency.problem.type. --%>
<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Already submitted</title></head>
<body>
<h1 id="refused">This form was already submitted</h1>
<p>You changed the form after sending it. Nothing was charged for the changed form: open the form again to send
   a new top-up.</p>
<p><small id="problem-type"><%= String.valueOf(request.getAttribute("dev.idempotency.problem.type")).replace("<", "") %></small></p>
</body>
</html>
