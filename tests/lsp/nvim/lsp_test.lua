-- Neovim's built-in LSP client (the 0.7 API) against `heraldc lsp` on a
-- copy of the PaymentConfirmed example with one error introduced. Run by
-- run.sh as `nvim --headless --clean -c 'luafile lsp_test.lua'` with
-- HERALDC (the compiler) and HERALD_NVIM_WORKSPACE (the copy) set. Prints
-- what it checked; any failure quits with status 1 and says why.

local heraldc = assert(os.getenv('HERALDC'), 'HERALDC is not set')
local root = assert(os.getenv('HERALD_NVIM_WORKSPACE'),
  'HERALD_NVIM_WORKSPACE is not set')
-- Every wait is bounded (milliseconds).
local timeout = 10000

local function say(text)
  io.stdout:write('nvim lsp test: ' .. text .. '\n')
end

local function fail(text)
  error(text, 0)
end

local function expect(condition, text)
  if not condition then fail(text) end
end

-- The 0-based line and byte column of the first line holding `needle` in
-- `path`'s lines, and how many lines hold it.
local function find(lines, needle)
  local found, count
  for i, line in ipairs(lines) do
    local col = line:find(needle, 1, true)
    if col then
      count = (count or 0) + 1
      found = found or { line = i - 1, col = col - 1 }
    end
  end
  return found, count or 0
end

local function hover_text(contents)
  if type(contents) == 'string' then return contents end
  if contents.value then return contents.value end
  local parts = {}
  for _, part in ipairs(contents) do
    parts[#parts + 1] = type(part) == 'string' and part or part.value
  end
  return table.concat(parts, '\n')
end

-- The one result of a request to the one client, or a failure saying why.
local function request(bufnr, method, params)
  local results, err = vim.lsp.buf_request_sync(bufnr, method, params, timeout)
  expect(results, method .. ': no answer within ' .. timeout .. ' ms ('
    .. tostring(err) .. ')')
  local _, answer = next(results)
  expect(answer, method .. ': no client answered')
  expect(not answer.err, method .. ': the server answered with an error: '
    .. vim.inspect(answer.err))
  return answer.result
end

local function run()
  -- The error: an unknown field of the event in a subscriber's body.
  local notifications = root .. '/notifications.herald'
  local order = root .. '/order.herald'
  local lines = vim.fn.readfile(notifications)
  local broken, count = find(lines, 'e.amount.cents')
  expect(count == 1, 'the example should use e.amount.cents once, not '
    .. count .. ' times')
  lines[broken.line + 1] = lines[broken.line + 1]:gsub('e%.amount%.cents',
    'e.amount.cent', 1)
  vim.fn.writefile(lines, notifications)

  vim.cmd('edit ' .. vim.fn.fnameescape(notifications))
  local bufnr = vim.api.nvim_get_current_buf()
  vim.bo[bufnr].filetype = 'herald'
  local exit_code
  local client_id = vim.lsp.start_client({
    name = 'heraldc',
    cmd = { heraldc, 'lsp' },
    root_dir = root,
    on_exit = function(code) exit_code = code end,
  })
  expect(client_id, 'vim.lsp.start_client did not start ' .. heraldc)
  expect(vim.lsp.buf_attach_client(bufnr, client_id),
    'vim.lsp.buf_attach_client failed')
  expect(vim.wait(timeout, function()
    local client = vim.lsp.get_client_by_id(client_id)
    return client ~= nil and client.initialized
  end, 20), 'the server did not finish initialize within ' .. timeout .. ' ms')
  say('started ' .. heraldc .. ' lsp on ' .. root)

  -- The diagnostic Neovim shows for the error.
  expect(vim.wait(timeout, function()
    return #vim.diagnostic.get(bufnr) > 0
  end, 20), 'no diagnostic shown within ' .. timeout .. ' ms')
  local shown = vim.diagnostic.get(bufnr)
  expect(#shown == 1, 'expected one diagnostic, got ' .. vim.inspect(shown))
  local d = shown[1]
  local field = broken.col + #'e.amount.'
  expect(d.code == 'E0305', 'diagnostic code: expected E0305, got '
    .. tostring(d.code))
  expect(d.severity == vim.diagnostic.severity.ERROR,
    'diagnostic severity: expected an error, got ' .. tostring(d.severity))
  expect(d.lnum == broken.line and d.col == field,
    string.format('diagnostic position: expected %d:%d, got %d:%d',
      broken.line, field, d.lnum, d.col))
  expect(d.message:find("type 'Money' has no field 'cent'", 1, true),
    'diagnostic message: ' .. d.message)
  say(string.format("diagnostic %s at %d:%d: %s", d.code, d.lnum + 1,
    d.col + 1, d.message:match('[^\n]*')))

  -- A hover on the event's name in a subscription.
  local uri = vim.uri_from_bufnr(bufnr)
  local sub = find(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false),
    'from Events(PaymentConfirmed {')
  expect(sub, 'no subscription to PaymentConfirmed without a context')
  local on_event = { line = sub.line, character = sub.col + #'from Events(' + 3 }
  local hover = request(bufnr, 'textDocument/hover',
    { textDocument = { uri = uri }, position = on_event })
  expect(hover and hover.contents, 'hover: no contents')
  local text = hover_text(hover.contents)
  for _, part in ipairs({ 'event commerce.order.PaymentConfirmed',
    'A payment went through.',
    'commerce.order', 'region: Region' }) do
    expect(text:find(part, 1, true), 'hover: no "' .. part .. '" in:\n' .. text)
  end
  say(string.format('hover at %d:%d shows the event, its doc comment, '
    .. 'context and fields', on_event.line + 1, on_event.character + 1))

  -- Go to definition: from the subscription to the event in order.herald.
  local target = find(vim.fn.readfile(order), 'event PaymentConfirmed =')
  expect(target, 'order.herald declares no PaymentConfirmed')
  local target_col = target.col + #'event '
  local locations = request(bufnr, 'textDocument/definition',
    { textDocument = { uri = uri }, position = on_event })
  expect(locations, 'definition: null')
  if locations.uri or locations.targetUri then locations = { locations } end
  expect(#locations == 1, 'definition: expected one location, got '
    .. vim.inspect(locations))
  local location = locations[1]
  local got_uri = location.uri or location.targetUri
  local range = location.range or location.targetSelectionRange
  expect(vim.uri_to_fname(got_uri) == order,
    'definition: expected ' .. order .. ', got ' .. got_uri)
  expect(range.start.line == target.line and range.start.character == target_col,
    string.format('definition: expected %d:%d, got %d:%d', target.line,
      target_col, range.start.line, range.start.character))
  -- And Neovim goes there.
  expect(vim.lsp.util.jump_to_location(location, 'utf-16'),
    'jump_to_location failed')
  local cursor = vim.api.nvim_win_get_cursor(0)
  expect(vim.api.nvim_buf_get_name(0) == order
    and cursor[1] == target.line + 1 and cursor[2] == target_col,
    string.format('after the jump: expected %s:%d:%d, at %s:%d:%d', order,
      target.line + 1, target_col, vim.api.nvim_buf_get_name(0), cursor[1],
      cursor[2]))
  say(string.format('definition from notifications.herald:%d:%d is '
    .. 'order.herald:%d:%d, and the editor jumps there', on_event.line + 1,
    on_event.character + 1, target.line + 1, target_col + 1))

  -- shutdown, then exit: the server ends with status 0.
  vim.lsp.stop_client(client_id)
  expect(vim.wait(timeout, function() return exit_code ~= nil end, 20),
    'the server did not exit within ' .. timeout .. ' ms')
  expect(exit_code == 0, 'the server exited with status ' .. exit_code)
  say('the server shut down and exited with 0; all checks passed')
end

local ok, err = xpcall(run, function(e)
  return type(e) == 'string' and e or vim.inspect(e)
end)
if ok then
  vim.cmd('qall!')
else
  io.stderr:write('nvim lsp test: FAILED: ' .. err .. '\n')
  vim.cmd('cquit 1')
end
