<%@ page contentType="text/html;charset=UTF-8" %>
<%-- Shown after a top-up: forwarded to by the JSP form's servlet, redirected to by the Faces form. Only digits are
     echoed, so nothing a visitor puts in the address reaches the page as markup. --%>
<%
    String account = request.getParameter("account");
    Object balance = request.getAttribute("balance") != null
            ? request.getAttribute("balance") : request.getParameter("balance");
    account = account != null && account.matches("[0-9]{1,18}") ? account : "?";
    String shown = balance != null && balance.toString().matches("[0-9]{1,18}") ? balance.toString() : "?";
%>
<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Topped up</title></head>
<body>
<h1>Topped up</h1>
<p>Account <span id="account-number"><%= account %></span> now has a balance of <span id="balance"><%= shown %></span>.</p>
</body>
</html>
